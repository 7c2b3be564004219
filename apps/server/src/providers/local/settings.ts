/**
 * What a node's parameters ask of its media, read the way the catalogue writes them
 * (packages/core/src/catalogue): durations as 8, "8" or "8s" (`duration`, `seconds`,
 * `durationSeconds`, `secondsTotal`, or `numFrames` at `framesPerSecond`); video resolutions as
 * lines ("480p", "720p", "1080p", "768P", "4k"); image resolutions as "1K"/"2K"/"4k"; fal's
 * named image sizes; explicit pixel sizes ("1280x720", runway's "1280:720", `width`/`height`);
 * aspect ratios ("16:9", Freepik's "widescreen_16_9"); and image counts (`numImages`).
 * The local provider makes its placeholders to these, so they look like what was asked for.
 */
import {
  MAX_AUDIO_SECONDS,
  MAX_IMAGE_SIDE,
  MAX_VIDEO_SECONDS,
  MAX_VIDEO_SIDE,
} from "./media/index.ts";

type Params = Record<string, unknown>;

export interface PixelSize {
  width: number;
  height: number;
}

/** fal's named image sizes (its `image_size` enum), plus the "auto" sizes some models take. */
export const NAMED_IMAGE_SIZES: Record<string, PixelSize> = {
  square_hd: { width: 1024, height: 1024 },
  square: { width: 512, height: 512 },
  portrait_4_3: { width: 768, height: 1024 },
  portrait_16_9: { width: 576, height: 1024 },
  landscape_4_3: { width: 1024, height: 768 },
  landscape_16_9: { width: 1024, height: 576 },
  auto: { width: 1024, height: 1024 },
  auto_2K: { width: 2048, height: 2048 },
  auto_4K: { width: 4096, height: 4096 },
};

/** Lines of a video when its node has no resolution setting (what most models make). */
const DEFAULT_VIDEO_LINES = 720;
/** Long side of an image when only its aspect ratio is chosen. */
const DEFAULT_IMAGE_SIDE = 1024;
/** Most images one local run makes (the catalogue's largest `numImages` is 9). */
const MAX_IMAGES = 16;
/** Longer clips are written at 22.05 kHz: half the bytes, still a valid PCM16 WAV. */
const LONG_AUDIO_SECONDS = 60;

const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);

/** A positive number from 8, "8" or "8s"; null when there is none. */
function positive(value: unknown): number | null {
  const parsed =
    typeof value === "number" ? value : Number.parseFloat(String(value ?? "").replace(/s$/i, ""));
  return Number.isFinite(parsed) && parsed > 0 ? parsed : null;
}

/** "1280x720" or "1280:720" as pixels (both sides 64 or more; "16:9" is a ratio, not a size). */
function pixelSize(value: unknown): PixelSize | null {
  if (typeof value !== "string") return null;
  const match = /^\s*(\d+)\s*[x:×]\s*(\d+)\s*$/i.exec(value);
  if (!match) return null;
  const [width, height] = [Number(match[1]), Number(match[2])];
  return width >= 64 && height >= 64 ? { width, height } : null;
}

/** Width ÷ height from "16:9", "16x9", 1.5 or "widescreen_16_9"; null for "auto" or none. */
export function aspectOf(params: Params): number | null {
  for (const key of ["aspectRatio", "aspect_ratio", "ratio"]) {
    const value = params[key];
    if (typeof value === "number" && Number.isFinite(value) && value > 0) return value;
    if (typeof value !== "string") continue;
    const match = /(?:^|_)(\d+(?:\.\d+)?)\s*[:x/_]\s*(\d+(?:\.\d+)?)$/i.exec(value.trim());
    const ratio = match ? Number(match[1]) / Number(match[2]) : Number.NaN;
    if (Number.isFinite(ratio) && ratio > 0) return ratio;
  }
  return null;
}

/** Explicit pixels: numeric `width`/`height`, or a size/dimensions/ratio written as pixels. */
function explicitSize(params: Params): PixelSize | null {
  const { width, height } = params;
  if (
    typeof width === "number" &&
    typeof height === "number" &&
    Number.isInteger(width) &&
    Number.isInteger(height) &&
    width >= 16 &&
    height >= 16
  )
    return { width, height };
  for (const key of ["size", "dimensions", "ratio", "imageSize", "image_size"]) {
    const size = pixelSize(params[key]);
    if (size) return size;
  }
  return null;
}

/** Scales a size down (keeping its shape) so neither side passes `max`. */
function fit(size: PixelSize, max: number, round: (value: number) => number): PixelSize {
  const scale = Math.min(1, max / Math.max(size.width, size.height));
  if (scale === 1) return size;
  return { width: round(size.width * scale), height: round(size.height * scale) };
}

/** A duration in seconds from the node's setting, else `fallback`. */
export function durationOf(params: Params, fallback: number): number {
  for (const key of [
    "duration",
    "seconds",
    "durationSeconds",
    "secondsTotal",
    "duration_seconds",
  ]) {
    const seconds = positive(params[key]);
    if (seconds !== null) return seconds;
  }
  // Wan: a frame count at a frame rate.
  const frames = positive(params.numFrames ?? params.num_frames);
  const rate = positive(params.framesPerSecond ?? params.frames_per_second ?? params.fps);
  if (frames !== null && rate !== null) return frames / rate;
  return fallback;
}

/** Lines from "720p" / "768P", or "4k" (2160 lines); null otherwise. */
function videoLines(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const lines = /^(\d+)p$/i.exec(value.trim());
  if (lines) return Number(lines[1]);
  const k = /^(\d+)k$/i.exec(value.trim());
  return k ? Number(k[1]) * 540 : null;
}

export interface VideoSettings extends PixelSize {
  durationSeconds: number;
  fps: number;
}

/**
 * A video's pixels, length and frame rate. Resolution counts the short side's lines ("720p"
 * at 16:9 is 1280×720, at 9:16 720×1280); an explicit size wins; no resolution is 720p.
 * Durations past MAX_VIDEO_SECONDS (60 s, no catalogue node asks for more) are capped there.
 */
export function videoSettings(params: Params, fallbackSeconds: number): VideoSettings {
  const durationSeconds = Math.min(MAX_VIDEO_SECONDS, durationOf(params, fallbackSeconds));
  const rate = positive(params.framesPerSecond ?? params.fps);
  const fps = rate === null ? 12 : Math.min(60, Math.max(1, rate));
  const explicit = explicitSize(params);
  let size: PixelSize;
  if (explicit) size = explicit;
  else {
    const lines = videoLines(params.resolution) ?? DEFAULT_VIDEO_LINES;
    const ratio = aspectOf(params) ?? 16 / 9;
    size =
      ratio >= 1
        ? { width: even(lines * ratio), height: even(lines) }
        : { width: even(lines), height: even(lines / ratio) };
  }
  return { ...fit(size, MAX_VIDEO_SIDE, even), durationSeconds, fps };
}

/** An image resolution ("1K", "2K", "4k") as its long side in pixels; null otherwise. */
function imageLongSide(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const k = /^(\d+)k$/i.exec(value.trim());
  return k ? Number(k[1]) * 1024 : null;
}

export interface ImageSettings extends PixelSize {
  count: number;
}

/**
 * An image's pixels and how many to make. An explicit size wins, then fal's named size
 * (ignored by a model variant that takes an aspect ratio instead, FLUX ultra), then the
 * aspect ratio at the chosen resolution's long side (1024 by default).
 */
export function imageSettings(params: Params): ImageSettings {
  const requested = positive(params.numImages ?? params.num_images);
  const count = Math.min(MAX_IMAGES, Math.max(1, Math.round(requested ?? 1)));
  const ultra = typeof params.model === "string" && /ultra/i.test(params.model);
  const named = [params.imageSize, params.image_size]
    .map((value) => (typeof value === "string" && !ultra ? NAMED_IMAGE_SIZES[value] : undefined))
    .find(Boolean);
  let size: PixelSize;
  const explicit = explicitSize(params);
  if (explicit && !ultra) size = explicit;
  else if (named && !(named === NAMED_IMAGE_SIZES.auto && aspectOf(params))) size = named;
  else {
    const long = imageLongSide(params.resolution) ?? DEFAULT_IMAGE_SIDE;
    const ratio = aspectOf(params) ?? 4 / 3;
    size =
      ratio >= 1
        ? { width: long, height: Math.max(1, Math.round(long / ratio)) }
        : { width: Math.max(1, Math.round(long * ratio)), height: long };
  }
  return { ...fit(size, MAX_IMAGE_SIDE, Math.round), count };
}

export interface AudioSettings {
  durationSeconds: number;
  sampleRate: number;
}

/** An audio clip's length (capped at MAX_AUDIO_SECONDS, 600 s) and sample rate. */
export function audioSettings(params: Params, fallbackSeconds: number): AudioSettings {
  const durationSeconds = Math.min(MAX_AUDIO_SECONDS, durationOf(params, fallbackSeconds));
  const asked = positive(params.sampleRate ?? params.sample_rate);
  const sampleRate =
    asked !== null && Number.isInteger(asked) && asked >= 8000 && asked <= 96000
      ? asked
      : durationSeconds > LONG_AUDIO_SECONDS
        ? 22050
        : 44100;
  return { durationSeconds, sampleRate };
}
