/**
 * Geometry of the image-processing nodes (crop, resize, reframe), shared by the browser's
 * live preview and the server's sharp pipeline so the two always agree on the pixels.
 */

export interface PixelSize {
  width: number;
  height: number;
}

/** A rectangle in whole pixels. */
export interface PixelRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The catalogue's crop parameters: fractions 0–1 of the image. */
export interface CropFractions {
  left: number;
  top: number;
  width: number;
  height: number;
}

export const RESIZE_FITS = ["cover", "contain", "fill", "inside", "outside"] as const;
export type ResizeFit = (typeof RESIZE_FITS)[number];

/** How a resize maps pixels: `source` (a region of the input) is drawn into `target`. */
export interface ResizePlan {
  output: PixelSize;
  source: PixelRect;
  target: PixelRect;
}

export type ReframeMode = "extend" | "crop";

/**
 * A reframe: the output size, and where the untouched original lands in it (`extend`,
 * over a blurred, dimmed cover of itself) or which region of it is kept (`crop`).
 */
export interface ReframePlan {
  output: PixelSize;
  mode: ReframeMode;
  /** extend: the original's place in the output; crop: the region of the input kept. */
  rect: PixelRect;
  /** extend: the backdrop's blur (Gaussian sigma, in output pixels). */
  blurSigma: number;
  /** extend: the backdrop's brightness factor. */
  dim: number;
}

/** "16:9" (or "16x9", or a positive number) → width / height; null when unreadable. */
export function parseAspectRatio(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) && value > 0 ? value : null;
  if (typeof value !== "string") return null;
  const match = /^\s*(\d+(?:\.\d+)?)\s*[:x/]\s*(\d+(?:\.\d+)?)\s*$/.exec(value);
  if (!match) return null;
  const ratio = Number(match[1]) / Number(match[2]);
  return Number.isFinite(ratio) && ratio > 0 ? ratio : null;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** The smallest crop side the catalogue allows (its width/height minimum is 1 %). */
export const minCropSide = (side: number) => Math.max(1, Math.ceil(side * 0.01));

/**
 * Crop fractions → the pixels the server extracts. Rounding may land a fraction like 0.999
 * on the edge, so at least one pixel stays inside; the rectangle never leaves the image.
 */
export function cropRect(size: PixelSize, crop: CropFractions): PixelRect {
  const { width: W, height: H } = size;
  const x = clamp(Math.round(crop.left * W), 0, W - 1);
  const y = clamp(Math.round(crop.top * H), 0, H - 1);
  return {
    x,
    y,
    width: clamp(Math.round(crop.width * W), 1, W - x),
    height: clamp(Math.round(crop.height * H), 1, H - y),
  };
}

/** The largest rectangle of `ratio` centred inside `rect`. */
export function fitAspectInside(rect: PixelRect, ratio: number): PixelRect {
  const width = Math.max(1, Math.min(rect.width, Math.round(rect.height * ratio)));
  const height = Math.max(1, Math.min(rect.height, Math.round(width / ratio)));
  return {
    x: rect.x + Math.floor((rect.width - width) / 2),
    y: rect.y + Math.floor((rect.height - height) / 2),
    width,
    height,
  };
}

/**
 * Snaps a pixel rectangle to whole pixels inside the image, at least the catalogue's minimum
 * size; a rectangle too far out is moved back in (its size kept when it fits).
 */
export function clampCropRect(rect: PixelRect, size: PixelSize): PixelRect {
  const { width: W, height: H } = size;
  const width = clamp(Math.round(rect.width), Math.min(W, minCropSide(W)), W);
  const height = clamp(Math.round(rect.height), Math.min(H, minCropSide(H)), H);
  return {
    x: clamp(Math.round(rect.x), 0, W - width),
    y: clamp(Math.round(rect.y), 0, H - height),
    width,
    height,
  };
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * A pixel rectangle → crop fractions that `cropRect` turns back into exactly that
 * rectangle (6 decimals: exact for images up to 500 000 pixels a side), never summing past 1.
 */
export function cropFractions(rect: PixelRect, size: PixelSize): CropFractions {
  const left = round6(rect.x / size.width);
  const top = round6(rect.y / size.height);
  return {
    left,
    top,
    width: Math.min(round6(rect.width / size.width), round6(1 - left)),
    height: Math.min(round6(rect.height / size.height), round6(1 - top)),
  };
}

const side = (value: number) => Math.max(1, Math.round(value));

/**
 * Resize as sharp's `fit` modes describe it, in whole pixels: `cover` crops the centre,
 * `contain` letterboxes, `fill` stretches, `inside`/`outside` keep the aspect ratio within
 * or around the box. With only one side given, the other follows the aspect ratio.
 */
export function resizePlan(
  size: PixelSize,
  box: { width?: number | undefined; height?: number | undefined },
  fit: ResizeFit = "cover",
): ResizePlan {
  const { width: W, height: H } = size;
  const full = { x: 0, y: 0, width: W, height: H };
  const whole = (output: PixelSize): ResizePlan => ({
    output,
    source: full,
    target: { x: 0, y: 0, ...output },
  });
  if (!box.width && !box.height) throw new Error("resize needs a width or a height");
  if (!box.width || !box.height) {
    const scale = box.width ? box.width / W : (box.height as number) / H;
    return whole({ width: box.width ?? side(W * scale), height: box.height ?? side(H * scale) });
  }
  const { width: w, height: h } = box;
  const fillScale = Math.min(w / W, h / H);
  const coverScale = Math.max(w / W, h / H);
  switch (fit) {
    case "fill":
      return whole({ width: w, height: h });
    case "inside":
      return whole({ width: side(W * fillScale), height: side(H * fillScale) });
    case "outside":
      return whole({ width: side(W * coverScale), height: side(H * coverScale) });
    case "contain": {
      const tw = Math.min(w, side(W * fillScale));
      const th = Math.min(h, side(H * fillScale));
      const target = {
        x: Math.floor((w - tw) / 2),
        y: Math.floor((h - th) / 2),
        width: tw,
        height: th,
      };
      return { output: { width: w, height: h }, source: full, target };
    }
    default: {
      const sw = Math.min(W, side(w / coverScale));
      const sh = Math.min(H, side(h / coverScale));
      const source = {
        x: Math.floor((W - sw) / 2),
        y: Math.floor((H - sh) / 2),
        width: sw,
        height: sh,
      };
      return {
        output: { width: w, height: h },
        source,
        target: { x: 0, y: 0, width: w, height: h },
      };
    }
  }
}

/**
 * Reframe to `ratio` (width / height). `extend` keeps every pixel and widens or heightens
 * the frame (the margins are filled with a blurred, dimmed cover of the picture); `crop`
 * keeps the largest centred region of that ratio.
 */
export function reframePlan(
  size: PixelSize,
  ratio: number,
  mode: ReframeMode = "extend",
): ReframePlan {
  const { width: W, height: H } = size;
  const wider = ratio > W / H;
  if (mode === "crop") {
    const w = wider ? W : side(H * ratio);
    const h = wider ? side(W / ratio) : H;
    const rect = { x: Math.floor((W - w) / 2), y: Math.floor((H - h) / 2), width: w, height: h };
    return { output: { width: w, height: h }, mode, rect, blurSigma: 0, dim: 1 };
  }
  const w = wider ? side(H * ratio) : W;
  const h = wider ? H : side(W / ratio);
  const rect = { x: Math.floor((w - W) / 2), y: Math.floor((h - H) / 2), width: W, height: H };
  return {
    output: { width: w, height: h },
    mode,
    rect,
    blurSigma: Math.max(2, Math.max(w, h) / 40),
    dim: 0.8,
  };
}
