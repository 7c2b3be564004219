import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useDocument, useDocumentStore } from "../../../document/context.tsx";
import type { CanvasNodeData } from "../../../document/types.ts";
import { cameraValue, captureScene, captureSize } from "./capture.ts";
import { loadKey, SceneItems } from "./SceneItems.tsx";
import { SceneToolbar } from "./SceneToolbar.tsx";
import { useSceneSources } from "./scene-sources.ts";
import {
  backgroundColor,
  DEFAULT_LENS_MM,
  defaultCamera,
  lensFov,
  nudge,
  type Placement,
  placementsOf,
  readLayout,
  SCENE_PARAM,
  type SceneCamera,
  sceneSignature,
  type TransformMode,
  withCamera,
  withPlacement,
} from "./scene-state.ts";
import { useSceneView } from "./use-scene.ts";

const MODE_KEYS: Record<string, TransformMode> = { w: "translate", e: "rotate", r: "scale" };
const { width: CAPTURE_WIDTH, height: CAPTURE_HEIGHT } = captureSize();
const ASPECT = CAPTURE_WIDTH / CAPTURE_HEIGHT;

/**
 * The scene composer's 3D editor: wired models and images placed in a small three.js view,
 * moved/rotated/scaled with a gizmo or the keyboard, framed with an orbit camera, and
 * "Capture" — its run — turns the view into the node's image and camera outputs. The
 * layout is saved in the node (`inputValues.scene`), one undoable edit per gesture.
 */
export default function SceneComposer({ id, data }: { id: string; data: CanvasNodeData }) {
  const documents = useDocumentStore();
  const setParam = useDocument((state) => state.setParam);
  const sources = useSceneSources(id);
  const rawLayout = data.inputValues?.[SCENE_PARAM]?.value;
  const layout = useMemo(() => readLayout(rawLayout), [rawLayout]);
  const lens = Number(data.inputValues?.fov?.value) || DEFAULT_LENS_MM;
  const fov = lensFov(lens);
  const background = backgroundColor(data.inputValues?.background?.value);
  const items = useMemo(() => {
    const placements = placementsOf(layout, sources);
    return sources.map((source) => ({
      ...source,
      placement: placements.get(source.key) as Placement,
    }));
  }, [layout, sources]);
  const framing = useMemo(() => defaultCamera(sources.length, fov, ASPECT), [sources.length, fov]);
  const camera = layout.camera ?? framing;

  const [picked, setPicked] = useState<string | null>(null);
  const [mode, setMode] = useState<TransformMode>("translate");
  const [loading, setLoading] = useState<Record<string, string | null>>({});
  const [capturing, setCapturing] = useState(false);
  const stage = useRef<HTMLDivElement>(null);
  const viewport = useRef<HTMLDivElement>(null);
  const selected = items.some((item) => item.key === picked && !item.placement.hidden)
    ? picked
    : null;

  // Gesture handlers run after renders: they read the latest layout through this ref.
  const latest = useRef({ layout, sources, camera });
  useEffect(() => {
    latest.current = { layout, sources, camera };
  });
  const commitPlacement = useCallback(
    (key: string, placement: Placement) => {
      const { layout: now, sources: wired } = latest.current;
      setParam(id, SCENE_PARAM, withPlacement(now, wired, key, placement));
    },
    [id, setParam],
  );
  const commitCamera = useCallback(
    (next: SceneCamera) => {
      const { layout: now, camera: shown } = latest.current;
      const rounded = withCamera(now, next);
      if (JSON.stringify(rounded.camera) === JSON.stringify(withCamera(now, shown).camera)) return;
      setParam(id, SCENE_PARAM, rounded);
    },
    [id, setParam],
  );

  const { view, failure } = useSceneView(
    stage,
    {
      select: setPicked,
      place: commitPlacement,
      look: commitCamera,
      loaded: (key, url, error) =>
        setLoading((current) => ({ ...current, [loadKey({ key, url })]: error })),
    },
    { items, selected, mode, fov, background, camera },
  );

  const toggleHidden = (key: string) => {
    const item = items.find((candidate) => candidate.key === key);
    if (!item) return;
    const { hidden, ...shown } = item.placement;
    commitPlacement(key, hidden ? shown : { ...shown, hidden: true });
  };
  const resetCamera = () => setParam(id, SCENE_PARAM, withCamera(layout, framing));
  const pick = (key: string) => {
    setPicked(key);
    viewport.current?.focus({ preventScroll: true });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Ctrl/⌘ shortcuts (undo, save…) still reach the editor.
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key;
    const item = items.find((candidate) => candidate.key === selected);
    let handled = true;
    if (MODE_KEYS[key.toLowerCase()]) setMode(MODE_KEYS[key.toLowerCase()] as TransformMode);
    else if (key === "f" || key === "F") resetCamera();
    else if (key === "Escape") setPicked(null);
    else if ((key === "Delete" || key === "Backspace") && item) toggleHidden(item.key);
    else if (item) {
      const next = nudge(item.placement, mode, key, event.shiftKey);
      if (next) commitPlacement(item.key, next);
      else handled = false;
    } else handled = false;
    if (!handled) return;
    event.preventDefault();
    event.stopPropagation();
  };

  const capture = async () => {
    if (!view || capturing) return;
    setCapturing(true);
    try {
      await captureScene(documents, id, async () => {
        const shot = view.camera();
        commitCamera(shot);
        return {
          blob: await view.capture({ width: CAPTURE_WIDTH, height: CAPTURE_HEIGHT }),
          camera: cameraValue(shot, fov, lens),
          signature: sceneSignature(items, shot, lens, background),
        };
      });
    } finally {
      setCapturing(false);
    }
  };

  const signature = sceneSignature(items, camera, lens, background);
  const stale =
    typeof data.captureSignature === "string" &&
    data.status !== "processing" &&
    data.captureSignature !== signature;
  const overlay =
    failure ??
    (view
      ? sources.length === 0
        ? "Connect 3D models or images to place them here"
        : null
      : "Loading the 3D scene…");

  return (
    <div className="scene-composer nokey">
      <SceneToolbar
        mode={mode}
        lens={lens}
        onMode={setMode}
        onLens={(value) => setParam(id, "fov", String(value))}
      />
      <div
        ref={viewport}
        className="scene-viewport"
        role="application"
        aria-label="3D scene"
        aria-roledescription="3D scene"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the 3D view takes keyboard shortcuts (W/E/R, arrows)
        tabIndex={0}
        onKeyDown={onKeyDown}
        onPointerDown={() => viewport.current?.focus({ preventScroll: true })}
      >
        <div ref={stage} className="scene-stage" />
        {overlay ? <p className="scene-overlay">{overlay}</p> : null}
      </div>
      <SceneItems
        items={items}
        selected={selected}
        loading={loading}
        onPick={pick}
        onToggleHidden={toggleHidden}
      />
      <p className="scene-hint">
        {selected
          ? "W/E/R: move, rotate, scale · arrows nudge · Del hides"
          : "Drag to orbit, scroll to zoom · click an item to place it"}
      </p>
      <div className="scene-actions">
        <button type="button" title="Frame every item again (F)" onClick={resetCamera}>
          Reset camera
        </button>
        <span className="scene-stale" role="status">
          {stale ? "Changed since the last capture" : null}
        </span>
        <button
          type="button"
          className="scene-capture"
          disabled={!view || capturing || data.status === "processing"}
          onClick={() => void capture()}
          title={`Render the view at ${CAPTURE_WIDTH}×${CAPTURE_HEIGHT} as this node's image`}
        >
          {capturing ? "Capturing…" : "Capture"}
        </button>
      </div>
    </div>
  );
}
