import { handleHints } from "../document/size-hints.ts";

/**
 * Invisible marks where a card's handles are, inside a node drawn as a plain box (zoomed
 * out). React Flow measures a node's handles whenever it mounts it, by the `source` and
 * `target` classes and `data-handle*` attributes of the elements inside; a box without them
 * was measured as having no handles, and no wire to that node could be drawn until it was
 * drawn in full again — wires to nodes off screen vanished after a zoom out and back in.
 * The marks are cheap spans, not React Flow `Handle`s (each of those runs a selector on
 * every change of React Flow's store).
 */
export function PortMarkers({ type }: { type: string }) {
  return handleHints(type).map((handle) => (
    <span
      key={`${handle.type}-${handle.id}`}
      className={`port-marker ${handle.type}`}
      data-handleid={handle.id}
      data-handlepos={handle.position}
      style={{ left: handle.x, top: handle.y, width: handle.width, height: handle.height }}
      aria-hidden="true"
    />
  ));
}
