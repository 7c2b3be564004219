/**
 * The "model" processing nodes done with plain image processing: background removal by a
 * border flood fill, and style filters (vectorize.ts traces SVGs).
 */
import type { Sharp } from "sharp";
import { num, oneOf, type Params } from "./params.ts";
import {
  applyLut,
  finish,
  fromRaw,
  type OpenedImage,
  outputFormat,
  type ProcessedImage,
  type Raw,
  toRaw,
} from "./raster.ts";

/**
 * Background remover — takes the median colour of the image's border as the background and
 * flood-fills from the border through pixels whose every channel is within `threshold`
 * (1–255, default 48) of it; those become transparent. `feather` (0–10 px, default 1) softens
 * the cut edge. Output keeps alpha, so it is PNG (or WebP when asked).
 */
export async function backgroundRemover(
  opened: OpenedImage,
  params: Params,
): Promise<ProcessedImage> {
  const threshold = num("bg-remover", params, "threshold", { min: 1, max: 255, fallback: 48 });
  const feather = num("bg-remover", params, "feather", { min: 0, max: 10, fallback: 1 });
  const format = outputFormat("bg-remover", params, opened.format, true);
  const raw = await toRaw(fromRaw(opened.raw), true);
  const { data, width: W, height: H } = raw;
  const background = borderMedian(raw);
  const near = (p: number) =>
    Math.abs((data[p * 4] ?? 0) - background[0]) <= threshold &&
    Math.abs((data[p * 4 + 1] ?? 0) - background[1]) <= threshold &&
    Math.abs((data[p * 4 + 2] ?? 0) - background[2]) <= threshold;
  // Flood from the border only, so subject pixels that happen to match the backdrop colour
  // (a white shirt on a white wall) survive when they are enclosed by the subject.
  const mask = new Uint8Array(W * H).fill(255);
  const queue = new Int32Array(W * H);
  let head = 0;
  let tail = 0;
  const visit = (p: number) => {
    if (mask[p] === 255 && near(p)) {
      mask[p] = 0;
      queue[tail++] = p;
    }
  };
  for (let x = 0; x < W; x++) {
    visit(x);
    visit((H - 1) * W + x);
  }
  for (let y = 0; y < H; y++) {
    visit(y * W);
    visit(y * W + W - 1);
  }
  while (head < tail) {
    const p = queue[head++] ?? 0;
    const x = p % W;
    if (x > 0) visit(p - 1);
    if (x < W - 1) visit(p + 1);
    if (p >= W) visit(p - W);
    if (p < W * (H - 1)) visit(p + W);
  }
  let alpha = Buffer.from(mask);
  if (feather >= 0.3) {
    alpha = await fromRaw({ data: alpha, width: W, height: H, channels: 1 })
      .blur(feather)
      .extractChannel(0) // sharp would otherwise hand back the mask as 3-channel sRGB
      .raw()
      .toBuffer();
  }
  const out = Buffer.from(data);
  for (let p = 0; p < W * H; p++) {
    out[p * 4 + 3] = Math.min(out[p * 4 + 3] ?? 255, alpha[p] ?? 255);
  }
  return finish(fromRaw({ ...raw, data: out }), format);
}

// Per-channel median of the border pixels: robust to a subject touching one edge.
function borderMedian(raw: Raw): [number, number, number] {
  const { data, width: W, height: H, channels } = raw;
  const hist = new Uint32Array(3 * 256); // three 256-bin histograms, one per channel
  let count = 0;
  const add = (x: number, y: number) => {
    const i = (y * W + x) * channels;
    for (let c = 0; c < 3; c++) {
      const bin = c * 256 + (data[i + c] ?? 0);
      hist[bin] = (hist[bin] ?? 0) + 1;
    }
    count++;
  };
  for (let x = 0; x < W; x++) {
    add(x, 0);
    if (H > 1) add(x, H - 1);
  }
  for (let y = 1; y < H - 1; y++) {
    add(0, y);
    if (W > 1) add(W - 1, y);
  }
  const median = (c: number) => {
    let seen = 0;
    for (let v = 0; v < 256; v++) {
      seen += hist[c * 256 + v] ?? 0;
      if (seen * 2 >= count) return v;
    }
    return 255;
  };
  return [median(0), median(1), median(2)];
}

/** The stylizer's presets (the catalogue's `targetStyle` choices). */
export const STYLES = [
  "impressionist",
  "anime",
  "cartoon",
  "oil_painting",
  "watercolor",
  "pixel_art",
  "sketch",
  "pop_art",
  "cyberpunk",
] as const;
export type Style = (typeof STYLES)[number];

const posterize = (levels: number) =>
  Uint8Array.from({ length: 256 }, (_, v) =>
    Math.round((Math.round((v / 255) * (levels - 1)) * 255) / (levels - 1)),
  );

/**
 * Stylizer — `targetStyle` (default impressionist) picks a filter chain: median smoothing,
 * posterising, recolouring, pixelating or edge drawing. Output has the input's size.
 */
export async function stylizer(opened: OpenedImage, params: Params): Promise<ProcessedImage> {
  const style = oneOf("stylizer", params, "targetStyle", STYLES, "impressionist");
  const alpha = opened.hasAlpha;
  // Each step is materialised: sharp runs one pipeline's operations in its own fixed order.
  const step = async (raw: Raw, fn: (image: Sharp) => Sharp) => toRaw(fn(fromRaw(raw)), alpha);
  const { width: W, height: H } = opened;
  let raw = opened.raw;
  switch (style) {
    case "impressionist":
      raw = await step(raw, (i) =>
        i.median(5).modulate({ saturation: 1.35 }).sharpen({ sigma: 1 }),
      );
      break;
    case "anime":
      raw = applyLut(
        await step(raw, (i) => i.median(3).modulate({ saturation: 1.3 })),
        posterize(8),
      );
      break;
    case "cartoon":
      raw = applyLut(
        await step(raw, (i) => i.median(5).modulate({ saturation: 1.2 })),
        posterize(5),
      );
      break;
    case "oil_painting":
      raw = await step(raw, (i) => i.median(7).modulate({ saturation: 1.15, brightness: 1.02 }));
      break;
    case "watercolor":
      raw = applyLut(await step(raw, (i) => i.blur(1.5)), posterize(10));
      raw = await step(raw, (i) =>
        i.modulate({ brightness: 1.08, saturation: 0.85 }).linear(0.9, 20),
      );
      break;
    case "pixel_art": {
      const block = Math.max(1, Math.round(Math.max(W, H) / 64));
      const size = {
        width: Math.max(1, Math.round(W / block)),
        height: Math.max(1, Math.round(H / block)),
      };
      raw = await step(raw, (i) => i.resize({ ...size, fit: "fill", kernel: "nearest" }));
      raw = applyLut(
        await step(raw, (i) => i.resize(W, H, { fit: "fill", kernel: "nearest" })),
        posterize(6),
      );
      break;
    }
    case "sketch":
      raw = await step(raw, (i) => i.greyscale().toColourspace("srgb"));
      raw = await step(raw, (i) =>
        i.convolve({ width: 3, height: 3, kernel: [-1, -1, -1, -1, 8, -1, -1, -1, -1] }),
      );
      raw = await step(raw, (i) => i.negate({ alpha: false }).linear(2.5, -380));
      break;
    case "pop_art":
      raw = applyLut(
        await step(raw, (i) => i.modulate({ saturation: 2 }).linear(1.2, -20)),
        posterize(3),
      );
      break;
    case "cyberpunk":
      raw = await step(raw, (i) =>
        i
          .recomb([
            [1.1, 0, 0.3],
            [0, 0.8, 0.3],
            [0.3, 0.2, 1.2],
          ])
          .linear(1.15, -15)
          .modulate({ saturation: 1.4 }),
      );
      break;
  }
  return finish(fromRaw(raw), outputFormat("stylizer", params, opened.format, false));
}
