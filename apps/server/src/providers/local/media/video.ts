/**
 * Procedural video for video nodes: the seeded picture of image.ts panning slowly, with a
 * moving disc and a progress bar, each frame encoded by sharp's libwebp as a VP8 keyframe
 * and muxed into WebM (see webm.ts) — no ffmpeg, no native codec beyond sharp.
 */
import sharp from "sharp";
import { dimension, num } from "./params.ts";
import type { Raw } from "./raster.ts";
import { rngFrom } from "./seed.ts";
import { artLayers, captionLayer, svgDocument } from "./svg.ts";
import { muxWebm, vp8FromWebp } from "./webm.ts";

/** Largest video side: 4K (3840×2160 either way round); VP8 allows more. */
export const MAX_VIDEO_SIDE = 3840;
/** Longest video, in seconds. */
export const MAX_VIDEO_SECONDS = 60;

/**
 * Most pixels a clip encodes, summed over its distinct frames. Encoding (sharp's libwebp, one
 * VP8 keyframe per frame) is nearly all of a render's time; past this budget a clip gets fewer
 * distinct frames, each shown longer, so an 8 s 720p or 1080p clip renders in about a second on two
 * cores. Its duration and dimensions stay exactly as asked: only its motion gets choppier.
 */
export const VIDEO_PIXEL_BUDGET = 48_000_000;
/** Most pixels encoded at once: a 4K clip's frames go one or two at a time, not eight. */
const BATCH_PIXELS = 16_000_000;

export interface RenderVideoOptions {
  prompt: string;
  seed: number;
  /** Pixels, 16–3840; default 320. */
  width?: number;
  /** Pixels, 16–3840; default 180. */
  height?: number;
  /** Seconds, 0.1–60; default 2. */
  durationSeconds?: number;
  /** 1–60; default 12. Lowered for large or long clips (see VIDEO_PIXEL_BUDGET). */
  fps?: number;
}

export interface RenderedVideo {
  bytes: Buffer;
  contentType: "video/webm";
  /** The first frame as PNG: what the video shows before it plays. */
  capturedFrame: Buffer;
  width: number;
  height: number;
  /** Exactly the duration asked for (the container's Duration). */
  durationSeconds: number;
  /** Distinct frames per second actually written (≤ the fps asked for). */
  fps: number;
  frameCount: number;
}

/** How many distinct frames a clip gets: fps × duration, within the pixel budget. */
export function videoFrameCount(
  width: number,
  height: number,
  durationSeconds: number,
  fps: number,
): number {
  const wanted = Math.max(1, Math.round(durationSeconds * fps));
  // The budget is a cap (a 60 s 4K clip must not cost 18 times it): two frames at the least.
  const affordable = Math.floor(VIDEO_PIXEL_BUDGET / (width * height));
  return Math.min(wanted, Math.max(2, affordable));
}

async function rasterise(svg: Buffer, alpha: boolean): Promise<Raw> {
  const image = sharp(svg, { density: 72 });
  const { data, info } = await (alpha ? image.ensureAlpha() : image.flatten({ background: "#000" }))
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/**
 * Renders a deterministic WebM (VP8) video of exactly `width`×`height` pixels and
 * `durationSeconds`, and its captured first frame. Throws LocalMediaError for out-of-range
 * options.
 */
export async function renderVideo(options: RenderVideoOptions): Promise<RenderedVideo> {
  const width = dimension("video", "width", options.width ?? 320, MAX_VIDEO_SIDE);
  const height = dimension("video", "height", options.height ?? 180, MAX_VIDEO_SIDE);
  const fps = num("video", { fps: options.fps ?? 12 }, "fps", { min: 1, max: 60 });
  const duration = num(
    "video",
    { durationSeconds: options.durationSeconds ?? 2 },
    "durationSeconds",
    {
      min: 0.1,
      max: MAX_VIDEO_SECONDS,
    },
  );
  const prompt = options.prompt ?? "";
  const rng = rngFrom("video", prompt, options.seed);
  // The art is drawn larger than the frame so a moving window over it reads as a camera pan.
  const padX = Math.round(width * 0.1);
  const padY = Math.round(height * 0.1);
  const art = await rasterise(
    svgDocument(
      width + 2 * padX,
      height + 2 * padY,
      artLayers(rng, width + 2 * padX, height + 2 * padY),
    ),
    false,
  );
  const caption = captionPixels(
    await rasterise(svgDocument(width, height, captionLayer(prompt, width, height)), true),
  );
  const frameCount = videoFrameCount(width, height, duration, fps);
  const durationMs = duration * 1000;
  const path = {
    phase: rng() * Math.PI * 2,
    fx: 1 + Math.floor(rng() * 2),
    fy: 1 + Math.floor(rng() * 3),
  };
  const discColour = [200 + Math.floor(rng() * 56), 200 + Math.floor(rng() * 56), 255] as const;

  const drawFrame = (index: number): Buffer => {
    const t = frameCount === 1 ? 0 : index / (frameCount - 1);
    const frame = Buffer.allocUnsafe(width * height * 3);
    const ox = Math.round(padX * (1 - Math.cos(Math.PI * t)));
    const oy = Math.round(padY * (1 - Math.cos(Math.PI * t * 0.5 + path.phase)) * 0.5);
    for (let y = 0; y < height; y++) {
      const from = ((y + oy) * art.width + ox) * 3;
      art.data.copy(frame, y * width * 3, from, from + width * 3);
    }
    // A disc on a Lissajous path, anti-aliased by its distance to the edge.
    const r = Math.max(3, Math.min(width, height) / 10);
    const cx = width / 2 + (width / 2 - r) * Math.sin(path.fx * Math.PI * 2 * t + path.phase);
    const cy = height / 2 + (height / 3 - r / 2) * Math.sin(path.fy * Math.PI * 2 * t);
    for (let y = Math.max(0, Math.floor(cy - r - 1)); y < Math.min(height, cy + r + 1); y++) {
      for (let x = Math.max(0, Math.floor(cx - r - 1)); x < Math.min(width, cx + r + 1); x++) {
        const cover = Math.max(0, Math.min(1, r - Math.hypot(x + 0.5 - cx, y + 0.5 - cy) + 0.5));
        if (cover === 0) continue;
        const i = (y * width + x) * 3;
        for (let c = 0; c < 3; c++) {
          frame[i + c] = Math.round(
            (frame[i + c] ?? 0) * (1 - cover * 0.85) + (discColour[c] ?? 255) * cover * 0.85,
          );
        }
      }
    }
    // The caption, blended where it covers anything (its band, not the whole frame).
    for (let k = 0; k < caption.at.length; k++) {
      const i = (caption.at[k] ?? 0) * 3;
      const a = caption.alpha[k] ?? 0;
      for (let c = 0; c < 3; c++)
        frame[i + c] = Math.round(
          (frame[i + c] ?? 0) * (1 - a) + (caption.rgb[k * 3 + c] ?? 0) * a,
        );
    }
    const bar = Math.round(width * ((index + 1) / frameCount));
    const barHeight = Math.max(2, Math.round(height / 60));
    for (let y = 0; y < barHeight; y++) frame.fill(255, y * width * 3, (y * width + bar) * 3);
    return frame;
  };

  const raw = { raw: { width, height, channels: 3 as const } };
  const frames: { vp8: Uint8Array; timestampMs: number }[] = [];
  let first: Buffer | undefined;
  // A few frames at a time (fewer the larger they are): sharp encodes them on its thread
  // pool, and memory stays bounded whatever the size.
  const perBatch = Math.max(1, Math.min(8, Math.floor(BATCH_PIXELS / (width * height))));
  for (let start = 0; start < frameCount; start += perBatch) {
    const batch = Array.from(
      { length: Math.min(perBatch, frameCount - start) },
      (_, k) => start + k,
    );
    const encoded = await Promise.all(
      batch.map(async (index) => {
        const pixels = drawFrame(index);
        if (index === 0) first = pixels;
        const webp = await sharp(pixels, raw).webp({ quality: 80, effort: 0 }).toBuffer();
        return {
          vp8: vp8FromWebp(webp),
          timestampMs: Math.round((index * durationMs) / frameCount),
        };
      }),
    );
    frames.push(...encoded);
  }
  const frameRate = frameCount / duration;
  const bytes = muxWebm({ width, height, fps: frameRate, durationMs, frames });
  const capturedFrame = await sharp(first ?? drawFrame(0), raw)
    .png({ compressionLevel: 3 })
    .toBuffer();
  return {
    bytes,
    contentType: "video/webm",
    capturedFrame,
    width,
    height,
    durationSeconds: duration,
    fps: frameRate,
    frameCount,
  };
}

/** The caption's covered pixels: their index in the frame, opacity and colour. */
function captionPixels(caption: Raw) {
  const count = caption.width * caption.height;
  const at: number[] = [];
  for (let p = 0; p < count; p++) if ((caption.data[p * 4 + 3] ?? 0) > 0) at.push(p);
  const alpha = new Float32Array(at.length);
  const rgb = new Uint8Array(at.length * 3);
  at.forEach((p, k) => {
    alpha[k] = (caption.data[p * 4 + 3] ?? 0) / 255;
    for (let c = 0; c < 3; c++) rgb[k * 3 + c] = caption.data[p * 4 + c] ?? 0;
  });
  return { at: Int32Array.from(at), alpha, rgb };
}
