/**
 * Core's `SHARE_TOKEN_HEADER`, written out: this file is part of the editor's first load, and
 * importing core's API constants from it moved them all into that load (bench F1).
 * `test/share-session.test.ts` checks the two agree.
 */
export const SHARE_HEADER = "x-share-token";

/**
 * The share link this tab was opened through (`/s/{token}`), if any: every request of the
 * tab then carries its token, which the server honours on the linked workflow only. A tab
 * opened through a link shows that workflow alone, so one token per tab is enough.
 */
let activeToken: string | null = null;

export function setShareToken(token: string | null): void {
  activeToken = token;
}

/** The headers that name the tab's share link (none outside link mode). */
export const shareHeaders = (): Record<string, string> =>
  activeToken ? { [SHARE_HEADER]: activeToken } : {};

/** A URL with the link's token as `?share=` (for an EventSource, which sets no headers). */
export function withShareQuery(url: string): string {
  if (!activeToken) return url;
  return `${url}${url.includes("?") ? "&" : "?"}share=${encodeURIComponent(activeToken)}`;
}
