/** Where media lives in node outputs (SPEC §3) and how to tell its form (SPEC §4). */

import { MEDIA_OUTPUT_KEYS, type MediaOutputKey } from "../catalogue/media-outputs.ts";

export const MEDIA_METADATA_FIELDS = [
  "width",
  "height",
  "aspectRatio",
  "duration",
  "format",
  "error",
] as const;

export type MediaForm = "embedded" | "remote" | "storage";

export { dataUrlMimeType, isDataUrl } from "./data-url.ts";

/**
 * Media is an embedded data string, a URL of our own storage, or any other remote URL.
 * `storageBase` is the public base URL of our storage (e.g. "https://host/api/media/").
 */
export function mediaForm(value: string, storageBase?: string): MediaForm {
  if (value.slice(0, 5).toLowerCase() === "data:") return "embedded";
  if (value.startsWith("/api/media/") || (storageBase && value.startsWith(storageBase)))
    return "storage";
  return "remote";
}

/** The URL held by a media output value: a string, or an object with a `url` (e.g. isolatedAudio). */
export function mediaUrlOf(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (value && typeof value === "object" && typeof (value as { url?: unknown }).url === "string") {
    return (value as { url: string }).url;
  }
  return null;
}

/** Every media URL in a node's outputs, with the key it sits under. */
export function listOutputMedia(
  outputs: Record<string, unknown> | undefined,
): { key: MediaOutputKey; url: string }[] {
  if (!outputs) return [];
  const found: { key: MediaOutputKey; url: string }[] = [];
  for (const key of MEDIA_OUTPUT_KEYS) {
    const value = outputs[key];
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      const url = mediaUrlOf(item);
      if (url) found.push({ key, url });
    }
  }
  return found;
}
