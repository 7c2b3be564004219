import { z } from "zod";

/**
 * A workflow's thumbnail (issue 24): a small picture of its canvas, drawn by the editor on
 * save and kept in the saved data's `metadata.thumbnail`; the server copies it to the row's
 * `thumbnail_url`, which the library shows. Only a small base64 PNG, WebP or JPEG whose bytes
 * are what it says is kept: the list answers every row's, and the page shows it.
 */
export const THUMBNAIL = {
  width: 240,
  height: 150,
  /** Characters of the data URL at most (about 12 KB of image). */
  maxChars: 16_000,
} as const;

export const THUMBNAIL_MESSAGE = "A thumbnail must be a small PNG, WebP or JPEG data URL";

const DATA_URL = /^data:image\/(png|webp|jpeg);base64,([A-Za-z0-9+/]+={0,2})$/;

/** The first bytes each image type starts with (WebP: RIFF, its size, then WEBP). */
const SIGNATURES: Record<string, (bytes: string) => boolean> = {
  png: (bytes) => bytes.startsWith("\x89PNG\r\n\x1a\n"),
  jpeg: (bytes) => bytes.startsWith("\xff\xd8\xff"),
  webp: (bytes) => bytes.startsWith("RIFF") && bytes.slice(8, 12) === "WEBP",
};

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** The bytes (as char codes) of whole base64 quads: enough to read a file's signature. */
function decodeStart(base64: string): string {
  let bytes = "";
  for (let at = 0; at + 4 <= base64.length; at += 4) {
    const quad = [...base64.slice(at, at + 4)].map((char) => BASE64.indexOf(char));
    const bits = quad.reduce((sum, value) => (sum << 6) | Math.max(value, 0), 0);
    bytes += String.fromCharCode((bits >> 16) & 255, (bits >> 8) & 255, bits & 255);
  }
  return bytes;
}

/** Whether `value` is a thumbnail this app keeps and shows. */
export function isThumbnail(value: unknown): value is string {
  if (typeof value !== "string" || value.length > THUMBNAIL.maxChars) return false;
  const parts = DATA_URL.exec(value);
  if (!parts) return false;
  const [, type, body] = parts as unknown as [string, string, string];
  return SIGNATURES[type]?.(decodeStart(body.slice(0, 16))) ?? false;
}

export const zThumbnailUrl = z.string().refine(isThumbnail, THUMBNAIL_MESSAGE);

/**
 * The row's thumbnail for a create or save: the one the request names, else the one in its
 * data when that is a valid thumbnail (null when the data says none), else undefined (the
 * row keeps the one it has).
 */
export function rowThumbnail(request: {
  thumbnailUrl?: string | null | undefined;
  data: { metadata?: { thumbnail?: unknown } | undefined };
}): string | null | undefined {
  if (request.thumbnailUrl !== undefined) return request.thumbnailUrl;
  const inData = request.data.metadata?.thumbnail;
  // null: the canvas was emptied, so the picture goes.
  if (inData === null) return null;
  return isThumbnail(inData) ? inData : undefined;
}
