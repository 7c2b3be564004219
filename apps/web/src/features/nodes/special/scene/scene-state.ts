import { z } from "zod";

/**
 * The scene composer's model, free of three.js: what is wired in, where each item stands,
 * where the camera looks from, and how a lens choice becomes a field of view. The layout
 * is saved in the node's `inputValues.scene` so it survives save/reload and undo.
 */

export type Vec3 = [number, number, number];
export type ItemKind = "model" | "image";
export type TransformMode = "translate" | "rotate" | "scale";

/** One thing wired into the scene, keyed by where it comes from (not its URL). */
export interface SceneSource {
  /** `sourceNodeId/sourceHandle/index`: a re-run upstream keeps the item's placement. */
  key: string;
  kind: ItemKind;
  url: string;
  label: string;
}

export interface Placement {
  position: Vec3;
  /** Euler XYZ, radians. */
  rotation: Vec3;
  scale: Vec3;
  hidden?: boolean;
}

export interface SceneCamera {
  position: Vec3;
  target: Vec3;
}

export interface SceneLayout {
  items: Record<string, Placement>;
  camera: SceneCamera | null;
}

/** The parameter the layout is kept under (not in the catalogue schema, so no form field). */
export const SCENE_PARAM = "scene";
export const DEFAULT_BACKGROUND = "#1f1f23";
export const DEFAULT_LENS_MM = 50;
/** Items stand this far apart, side by side, until the user places them. */
const SPACING = 1.4;

const zVec3 = z.tuple([z.number(), z.number(), z.number()]);
const zPlacement = z.object({
  position: zVec3,
  rotation: zVec3,
  scale: zVec3,
  hidden: z.boolean().optional(),
});
const zCamera = z.object({ position: zVec3, target: zVec3 });

/** Four decimals: enough for a scene, and saved files stay small and stable. */
export const round = (value: number) => {
  const rounded = Math.round(value * 1e4) / 1e4;
  return rounded === 0 ? 0 : rounded;
};
const roundVec = (vec: readonly number[]): Vec3 => [
  round(vec[0] ?? 0),
  round(vec[1] ?? 0),
  round(vec[2] ?? 0),
];

/** The saved layout, read leniently: a damaged entry is dropped, not the whole layout. */
export function readLayout(value: unknown): SceneLayout {
  const raw = (value && typeof value === "object" ? value : {}) as {
    items?: unknown;
    camera?: unknown;
  };
  const items: Record<string, Placement> = {};
  if (raw.items && typeof raw.items === "object")
    for (const [key, entry] of Object.entries(raw.items)) {
      const parsed = zPlacement.safeParse(entry);
      if (parsed.success) items[key] = parsed.data;
    }
  const camera = zCamera.safeParse(raw.camera);
  return { items, camera: camera.success ? camera.data : null };
}

/** Where an item stands before the user moves it: in a row, centred on the origin. */
export function defaultPlacement(index: number, count: number): Placement {
  return {
    position: [round((index - (count - 1) / 2) * SPACING), 0, 0],
    rotation: [0, 0, 0],
    scale: [1, 1, 1],
  };
}

/** Each source's placement: saved, else its default spot in the row. */
export function placementsOf(
  layout: SceneLayout,
  sources: readonly SceneSource[],
): Map<string, Placement> {
  return new Map(
    sources.map((source, index) => [
      source.key,
      layout.items[source.key] ?? defaultPlacement(index, sources.length),
    ]),
  );
}

/** The layout with one item placed; entries of items no longer wired in are dropped. */
export function withPlacement(
  layout: SceneLayout,
  sources: readonly SceneSource[],
  key: string,
  placement: Placement,
): SceneLayout {
  const items: Record<string, Placement> = {};
  for (const source of sources) {
    const kept = source.key === key ? placement : layout.items[source.key];
    if (kept) items[source.key] = kept;
  }
  const rounded: Placement = {
    position: roundVec(placement.position),
    rotation: roundVec(placement.rotation),
    scale: roundVec(placement.scale),
  };
  if (placement.hidden) rounded.hidden = true;
  items[key] = rounded;
  return { ...layout, items };
}

export function withCamera(layout: SceneLayout, camera: SceneCamera): SceneLayout {
  return {
    ...layout,
    camera: { position: roundVec(camera.position), target: roundVec(camera.target) },
  };
}

/** A camera that frames a row of `count` items (the "Reset camera" view). */
export function defaultCamera(count: number, fovDegrees: number, aspect: number): SceneCamera {
  const halfV = (fovDegrees * Math.PI) / 360;
  const halfH = Math.atan(Math.tan(halfV) * aspect);
  const halfWidth = (Math.max(1, count) * SPACING) / 2 + 0.3;
  const distance = Math.max(halfWidth / Math.tan(halfH), 0.9 / Math.tan(halfV));
  const target: Vec3 = [0, 0.5, 0];
  return {
    position: [0, round(0.5 + distance * 0.25), round(distance)],
    target,
  };
}

/** Vertical field of view (degrees) of a full-frame (36×24 mm) lens. */
export function lensFov(lens: unknown): number {
  const mm = Number(lens);
  const focal = Number.isFinite(mm) && mm > 0 ? mm : DEFAULT_LENS_MM;
  return round((2 * Math.atan(12 / focal) * 180) / Math.PI);
}

/** The background parameter as `#rrggbb`; anything else falls back to the default. */
export function backgroundColor(value: unknown): string {
  const text = typeof value === "string" ? value.trim().toLowerCase() : "";
  if (/^#[0-9a-f]{6}$/.test(text)) return text;
  if (/^#[0-9a-f]{3}$/.test(text)) return `#${[...text.slice(1)].map((c) => c + c).join("")}`;
  return DEFAULT_BACKGROUND;
}

const STEP = { translate: 0.1, rotate: Math.PI / 12, scale: 1.1 } as const;

/**
 * The placement after an arrow key: in Move mode ←/→ is x, ↑/↓ is y (z with Shift); in
 * Rotate mode ←/→ turns about y, ↑/↓ about x (15°); in Scale mode ↑/→ grows, ↓/← shrinks.
 * Null for any other key.
 */
export function nudge(
  placement: Placement,
  mode: TransformMode,
  key: string,
  shift = false,
): Placement | null {
  const sign = key === "ArrowRight" || key === "ArrowUp" ? 1 : -1;
  if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(key)) return null;
  const horizontal = key === "ArrowLeft" || key === "ArrowRight";
  if (mode === "scale") {
    const factor = sign > 0 ? STEP.scale : 1 / STEP.scale;
    return { ...placement, scale: roundVec(placement.scale.map((v) => v * factor)) };
  }
  const axis = mode === "translate" ? (horizontal ? 0 : shift ? 2 : 1) : horizontal ? 1 : 0;
  const vec = [...(mode === "translate" ? placement.position : placement.rotation)] as Vec3;
  // Up moves away from the camera along z, so it reads as "further".
  const delta = mode === "translate" && axis === 2 ? -sign : sign;
  vec[axis] += delta * STEP[mode];
  return mode === "translate"
    ? { ...placement, position: roundVec(vec) }
    : { ...placement, rotation: roundVec(vec) };
}

/** What a capture shows, as a string: compared with the last capture's to flag a stale shot. */
export function sceneSignature(
  items: readonly { key: string; url: string; placement: Placement }[],
  camera: SceneCamera,
  lens: number,
  background: string,
): string {
  const shown = items
    .filter((item) => !item.placement.hidden)
    .map((item) => [
      item.url,
      item.placement.position,
      item.placement.rotation,
      item.placement.scale,
    ]);
  return JSON.stringify([
    shown,
    withCamera({ items: {}, camera: null }, camera).camera,
    lens,
    background,
  ]);
}
