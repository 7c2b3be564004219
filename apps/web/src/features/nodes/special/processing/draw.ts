/**
 * Canvas 2D drawing of each processing preview, from core's geometry and levels mapping —
 * the same plans the server's sharp pipeline follows. Coordinates are CSS pixels scaled by
 * `scale` (preview pixels per output pixel); the context is already set for the device ratio.
 */
import {
  applyLevels,
  type LevelsParams,
  levelsProblem,
  type PixelRect,
  type PixelSize,
  type ReframePlan,
  type ResizePlan,
  resizePlan,
} from "@atelier/core";

/** The largest preview, in CSS pixels (fits the node's card). */
export const PREVIEW_BOX: PixelSize = { width: 284, height: 180 };

/** A size fitted into the preview box: its CSS size and pixels per image pixel. */
export function fitPreview(size: PixelSize, box: PixelSize = PREVIEW_BOX) {
  const scale = Math.min(box.width / size.width, box.height / size.height, 4);
  return {
    width: Math.max(1, Math.round(size.width * scale)),
    height: Math.max(1, Math.round(size.height * scale)),
    scale,
  };
}

export const naturalSize = (image: HTMLImageElement): PixelSize => ({
  width: image.naturalWidth,
  height: image.naturalHeight,
});

type Context = CanvasRenderingContext2D;

function drawPart(
  ctx: Context,
  image: HTMLImageElement,
  from: PixelRect,
  to: PixelRect,
  s: number,
) {
  ctx.drawImage(
    image,
    from.x,
    from.y,
    from.width,
    from.height,
    to.x * s,
    to.y * s,
    to.width * s,
    to.height * s,
  );
}

const transparency = new WeakMap<HTMLImageElement, boolean>();

/** Whether the image has see-through pixels (sharp pads those with transparency, not black). */
export function hasTransparency(image: HTMLImageElement): boolean {
  const known = transparency.get(image);
  if (known !== undefined) return known;
  let found = false;
  try {
    const probe = document.createElement("canvas");
    const size = fitPreview(naturalSize(image), { width: 64, height: 64 });
    probe.width = size.width;
    probe.height = size.height;
    const ctx = probe.getContext("2d", { willReadFrequently: true });
    if (ctx) {
      ctx.drawImage(image, 0, 0, size.width, size.height);
      const { data } = ctx.getImageData(0, 0, size.width, size.height);
      for (let i = 3; i < data.length && !found; i += 4) found = (data[i] ?? 255) < 255;
    }
  } catch {
    // Unreadable pixels (another site's image): assume opaque, as most photos are.
  }
  transparency.set(image, found);
  return found;
}

/** The whole image (the crop editor draws its box over it). */
export function drawWhole(ctx: Context, image: HTMLImageElement, scale: number): void {
  const size = naturalSize(image);
  const all = { x: 0, y: 0, ...size };
  drawPart(ctx, image, all, all, scale);
}

/** A resize: black (or clear, for transparent images) padding, then the planned region. */
export function drawResize(
  ctx: Context,
  image: HTMLImageElement,
  plan: ResizePlan,
  scale: number,
): void {
  const { output, source, target } = plan;
  ctx.clearRect(0, 0, output.width * scale, output.height * scale);
  if (!hasTransparency(image)) {
    ctx.fillStyle = "#000";
    ctx.fillRect(0, 0, output.width * scale, output.height * scale);
  }
  drawPart(ctx, image, source, target, scale);
}

/**
 * Levels on the preview's own pixels: the image drawn at the canvas's device size, then
 * core's `applyLevels`. Answers a message instead when the pixels cannot be read or the
 * parameters cannot apply.
 */
export function drawLevels(
  ctx: Context,
  image: HTMLImageElement,
  levels: LevelsParams,
  scale: number,
): string | null {
  const problem = levelsProblem(levels);
  if (problem) return `Levels: ${problem}`;
  drawWhole(ctx, image, scale);
  const { width, height } = ctx.canvas;
  try {
    const pixels = ctx.getImageData(0, 0, width, height);
    applyLevels(pixels.data, 4, levels);
    ctx.putImageData(pixels, 0, 0);
    return null;
  } catch {
    return "This image's pixels cannot be read here; run the node to see the levels applied.";
  }
}

/** A reframe: a blurred, dimmed cover of the image behind the untouched original. */
export function drawReframe(
  ctx: Context,
  image: HTMLImageElement,
  plan: ReframePlan,
  scale: number,
): void {
  const size = naturalSize(image);
  const { output, rect } = plan;
  ctx.fillStyle = "#000";
  ctx.fillRect(0, 0, output.width * scale, output.height * scale);
  if (plan.mode === "crop") {
    drawPart(ctx, image, rect, { x: 0, y: 0, ...output }, scale);
    return;
  }
  const cover = resizePlan(size, output, "cover");
  ctx.save();
  ctx.filter = `blur(${plan.blurSigma * scale}px) brightness(${plan.dim})`;
  drawPart(ctx, image, cover.source, cover.target, scale);
  ctx.restore();
  drawPart(ctx, image, { x: 0, y: 0, ...size }, rect, scale);
}
