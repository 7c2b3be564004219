/**
 * The crop box's interaction math (pure): dragging the box or one of its corners, and
 * nudging them with the arrow keys, always in whole image pixels inside the image.
 */
import { clampCropRect, minCropSide, type PixelRect, type PixelSize } from "@atelier/core";

export type CropHandle = "move" | "nw" | "ne" | "sw" | "se";

export const CORNERS = ["nw", "ne", "sw", "se"] as const;

export const CORNER_NAMES: Record<(typeof CORNERS)[number], string> = {
  nw: "top-left",
  ne: "top-right",
  sw: "bottom-left",
  se: "bottom-right",
};

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * The rectangle after dragging `handle` by (dx, dy) image pixels from `start`: the box
 * moves (stopping at the edges), a corner resizes (never past the opposite corner, never
 * below the catalogue's 1 % minimum).
 */
export function dragCrop(
  start: PixelRect,
  handle: CropHandle,
  dx: number,
  dy: number,
  size: PixelSize,
): PixelRect {
  if (handle === "move") return clampCropRect({ ...start, x: start.x + dx, y: start.y + dy }, size);
  const minW = Math.min(size.width, minCropSide(size.width));
  const minH = Math.min(size.height, minCropSide(size.height));
  let left = start.x;
  let top = start.y;
  let right = start.x + start.width;
  let bottom = start.y + start.height;
  if (handle.includes("w")) left = clamp(Math.round(left + dx), 0, right - minW);
  if (handle.includes("e")) right = clamp(Math.round(right + dx), left + minW, size.width);
  if (handle.includes("n")) top = clamp(Math.round(top + dy), 0, bottom - minH);
  if (handle.includes("s")) bottom = clamp(Math.round(bottom + dy), top + minH, size.height);
  return { x: left, y: top, width: right - left, height: bottom - top };
}

const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

/** An arrow key's nudge of `handle` (1 px, Shift 10 px); null for any other key. */
export function nudgeCrop(
  rect: PixelRect,
  handle: CropHandle,
  key: string,
  shift: boolean,
  size: PixelSize,
): PixelRect | null {
  const arrow = ARROWS[key];
  if (!arrow) return null;
  const step = shift ? 10 : 1;
  return dragCrop(rect, handle, arrow[0] * step, arrow[1] * step, size);
}

export const sameRect = (a: PixelRect, b: PixelRect) =>
  a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
