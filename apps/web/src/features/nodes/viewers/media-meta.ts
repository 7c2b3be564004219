/** Pure helpers for media previews: format, aspect ratio, duration and metadata text (SPEC §3). */
import { dataUrlMimeType, isDataUrl as isDataValue } from "@atelier/core";

/** core's guard narrows `string` to `never` when negated; this one takes a string. */
const isDataUrl = (url: string): boolean => isDataValue(url);

/** SPEC §8 metadata errors, shown when a preview cannot read its media. */
export const META_ERRORS = {
  cors: "External service URL - metadata unavailable due to CORS",
  image: "Failed to load image",
  audio: "Failed to load audio",
  model: "3D model metadata not available",
} as const;

/** SPEC §3 media metadata fields, plus a free `detail` (e.g. a triangle count). */
export interface MediaMeta {
  width?: number;
  height?: number;
  aspectRatio?: string | null;
  duration?: number;
  format?: string | null;
  error?: string;
  detail?: string;
}

/**
 * What every lazy viewer receives. `still` is a video's poster or a 3D model's snapshot.
 * Both have passed the allow-list for showing (`mediaSrc`, in MediaPreview); a link or
 * download still asks `mediaHref`, which refuses SVG data.
 */
export interface ViewerProps {
  url: string;
  still?: string | undefined;
}

const MIME_FORMATS: Record<string, string> = {
  "image/jpeg": "JPEG",
  "image/svg+xml": "SVG",
  "video/quicktime": "MOV",
  "video/x-matroska": "MKV",
  "audio/mpeg": "MP3",
  "audio/mp4": "M4A",
  "audio/x-wav": "WAV",
  "audio/wave": "WAV",
  "model/gltf-binary": "GLB",
  "model/gltf+json": "GLTF",
};
const EXTENSION_FORMATS: Record<string, string> = { jpg: "JPEG", jpeg: "JPEG", tif: "TIFF" };

/** "PNG", "MP4", "GLB"… from a content type, a data URL's MIME type or the URL's extension. */
export function formatOf(url: string, contentType?: string | null): string | null {
  const mime = (contentType ?? (isDataUrl(url) ? dataUrlMimeType(url) : null))
    ?.split(";")[0]
    ?.trim()
    .toLowerCase();
  if (mime) {
    const subtype = mime.split("/")[1];
    return MIME_FORMATS[mime] ?? (subtype ? subtype.replace(/^x-/, "").toUpperCase() : null);
  }
  if (isDataUrl(url)) return null;
  const path = url.split(/[?#]/)[0] ?? "";
  const extension = /\.([a-z0-9]{2,5})$/i.exec(path.slice(path.lastIndexOf("/") + 1))?.[1];
  if (!extension) return null;
  const lower = extension.toLowerCase();
  return EXTENSION_FORMATS[lower] ?? lower.toUpperCase();
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * "16:9" from a width and height: exact when the reduced ratio is small, otherwise the
 * smallest ratio within `tolerance` (relative), e.g. 1366×768 → "16:9"; else "2.37:1".
 */
export function aspectRatioText(width: number, height: number, tolerance = 0.01): string | null {
  if (!(width > 0 && height > 0) || !Number.isFinite(width) || !Number.isFinite(height)) {
    return null;
  }
  const w = Math.round(width);
  const h = Math.round(height);
  const divisor = gcd(w, h) || 1;
  if (w / divisor <= 32 && h / divisor <= 32) return `${w / divisor}:${h / divisor}`;
  const ratio = width / height;
  for (let down = 1; down <= 32; down++) {
    const across = Math.round(ratio * down);
    if (across >= 1 && across <= 32 && Math.abs(across / down - ratio) / ratio <= tolerance) {
      return `${across}:${down}`;
    }
  }
  return ratio >= 1 ? `${ratio.toFixed(2)}:1` : `1:${(1 / ratio).toFixed(2)}`;
}

/** "m:ss" (or "h:mm:ss") for a duration in seconds; null when unknown or endless. */
export function durationText(seconds: number | undefined): string | null {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return null;
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}

/** One line of metadata: "1920×1080 · 16:9 · 0:12 · MP4". Empty when nothing is known. */
export function describeMeta(meta: MediaMeta): string {
  const parts: string[] = [];
  if (meta.width && meta.height) parts.push(`${meta.width}×${meta.height}`);
  if (meta.aspectRatio) parts.push(meta.aspectRatio);
  const duration = durationText(meta.duration);
  if (duration) parts.push(duration);
  if (meta.format) parts.push(meta.format);
  if (meta.detail) parts.push(meta.detail);
  return parts.join(" · ");
}

/** A file name for a download link: the URL's last path segment, or `base.ext` for data. */
export function fileNameOf(url: string, base = "output"): string {
  if (!isDataUrl(url) && !url.startsWith("blob:")) {
    const path = url.split(/[?#]/)[0] ?? "";
    const last = path.slice(path.lastIndexOf("/") + 1);
    if (last) {
      try {
        return decodeURIComponent(last);
      } catch {
        return last;
      }
    }
  }
  const format = formatOf(url);
  return format ? `${base}.${format.toLowerCase()}` : base;
}

/** Whether fetching `url` from `origin` is cross-origin (data: and blob: URLs never are). */
export function isCrossOrigin(url: string, origin = globalThis.location?.origin): boolean {
  if (isDataUrl(url) || url.startsWith("blob:")) return false;
  if (!origin || origin === "null") return /^[a-z][a-z0-9+.-]*:\/\//i.test(url);
  try {
    return new URL(url, origin).origin !== origin;
  } catch {
    return false;
  }
}

/** `bars` peaks (0..1, the loudest is 1) of a sample buffer, for drawing a waveform. */
export function peaksOf(samples: ArrayLike<number>, bars: number): number[] {
  const peaks = new Array<number>(bars).fill(0);
  if (samples.length === 0 || bars <= 0) return peaks;
  const size = samples.length / bars;
  let loudest = 0;
  for (let bar = 0; bar < bars; bar++) {
    const end = Math.min(samples.length, Math.floor((bar + 1) * size));
    let peak = 0;
    for (let index = Math.floor(bar * size); index < end; index++) {
      const value = Math.abs(samples[index] ?? 0);
      if (value > peak) peak = value;
    }
    peaks[bar] = peak;
    if (peak > loudest) loudest = peak;
  }
  return loudest > 0 ? peaks.map((peak) => peak / loudest) : peaks;
}
