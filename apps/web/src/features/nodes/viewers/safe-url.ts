import { type MediaUrlKind, safeLinkUrl, safeMediaUrl } from "@atelier/core";

/**
 * Core's URL allow-list bound to this page's origin. Every address that comes from workflow
 * data, a provider or a user goes through one of these before it reaches an attribute, a
 * fetch, a loader, a new window or a download; null means "show the note, not the media".
 */

/** What a node says where it dropped an address. */
export const BLOCKED_MEDIA = "Blocked an unsafe media address";

const origin = () => globalThis.location?.origin ?? "";

/** An address to show media from: `src`, `poster`, three.js loaders, a preview's fetch. */
export function mediaSrc(value: unknown, kind: MediaUrlKind = "any"): string | null {
  return safeMediaUrl(value, { origin: origin(), kind, use: "embed" });
}

/** An address to open or save: `href`, `download`, `window.open` (never SVG data). */
export function mediaHref(value: unknown, kind: MediaUrlKind = "any"): string | null {
  return safeMediaUrl(value, { origin: origin(), kind, use: "open" });
}

/** A link written in notes or markdown. */
export function linkHref(value: unknown): string | null {
  return safeLinkUrl(value, { origin: origin() });
}
