import {
  type CropFractions,
  DEFAULT_LEVELS,
  getNodeDefinition,
  type LevelsParams,
  parseAspectRatio,
  type ResizeFit,
} from "@atelier/core";
import type { CanvasNodeData } from "../../../document/types.ts";

/** The node's parameters as its catalogue schema reads them (defaults filled in). */
function paramsOf(type: string, data: CanvasNodeData): Record<string, unknown> {
  const schema = getNodeDefinition(type)?.params;
  if (!schema) return {};
  const values: Record<string, unknown> = {};
  for (const [name, slot] of Object.entries(data.inputValues ?? {})) values[name] = slot?.value;
  const parsed = schema.safeParse(values);
  // A value out of range (mid-typing) previews the defaults rather than nothing.
  return (parsed.success ? parsed.data : schema.parse({})) as Record<string, unknown>;
}

const numberOr = (value: unknown, fallback: number) =>
  typeof value === "number" && Number.isFinite(value) ? value : fallback;

export function cropParams(data: CanvasNodeData): CropFractions {
  const p = paramsOf("crop", data);
  return {
    left: numberOr(p.left, 0),
    top: numberOr(p.top, 0),
    width: numberOr(p.width, 1),
    height: numberOr(p.height, 1),
  };
}

export function resizeParams(data: CanvasNodeData): {
  width: number;
  height: number;
  fit: ResizeFit;
} {
  const p = paramsOf("resize", data);
  return {
    width: numberOr(p.width, 1024),
    height: numberOr(p.height, 1024),
    fit: (p.fit as ResizeFit | undefined) ?? "cover",
  };
}

export function levelsParams(data: CanvasNodeData): LevelsParams {
  const p = paramsOf("levels", data);
  return {
    blackPoint: numberOr(p.blackPoint, DEFAULT_LEVELS.blackPoint),
    whitePoint: numberOr(p.whitePoint, DEFAULT_LEVELS.whitePoint),
    gamma: numberOr(p.gamma, DEFAULT_LEVELS.gamma),
    saturation: numberOr(p.saturation, DEFAULT_LEVELS.saturation),
  };
}

export function reframeParams(data: CanvasNodeData): { ratio: number; label: string } {
  const label = String(paramsOf("reframe", data).aspectRatio ?? "16:9");
  return { ratio: parseAspectRatio(label) ?? 16 / 9, label };
}
