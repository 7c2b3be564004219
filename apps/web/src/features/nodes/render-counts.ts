/**
 * Per-node render counters for the render-count test: on only with `?debug=renders`,
 * read from `window.__atelierRenderCounts`.
 */
const enabled =
  typeof window !== "undefined" &&
  new URLSearchParams(window.location.search).get("debug") === "renders";
const counts: Record<string, number> = {};
if (enabled)
  (window as unknown as { __atelierRenderCounts: Record<string, number> }).__atelierRenderCounts =
    counts;

export function countRender(id: string): void {
  if (enabled) counts[id] = (counts[id] ?? 0) + 1;
}
