/*
 * Telling a data URL and its type. A module of its own: the lazily loaded portable export
 * needs these two and not the media catalogue `media.ts` brings along.
 */

export function isDataUrl(value: unknown): value is string {
  return typeof value === "string" && value.slice(0, 5).toLowerCase() === "data:";
}

/** The MIME type of a data URL, e.g. "video/mp4", or null. */
export function dataUrlMimeType(value: string): string | null {
  const match = /^data:([^;,]+)/i.exec(value);
  return match?.[1]?.toLowerCase() ?? null;
}
