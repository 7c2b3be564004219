import type { InternalNode, ReactFlowState } from "@xyflow/react";
import type { CanvasEdge, CanvasNode } from "../document/types.ts";

/** How far past each side of the visible canvas wires are handed over, in screens. */
export const WIRE_MARGIN_SCREENS = 1;

type View = Pick<
  ReactFlowState<CanvasNode, CanvasEdge>,
  "nodeLookup" | "transform" | "width" | "height"
>;

/**
 * The wires React Flow is given: those whose two ends' box reaches the visible canvas grown
 * by a screen on every side (React Flow draws a wire when that box meets the view, so it
 * still draws every wire it would, with a screen of panning to spare), and selected wires
 * wherever they are, so Delete finds them. (Zoomed out, React Flow holds no wires at all:
 * flow-sync.ts.)
 *
 * React Flow rebuilds a lookup of every wire it holds on each change of the list (~35 ms
 * for 3,854 wires on a slow core) and checks each one's visibility on every change of its
 * store (each drag move, each measured size): holding the ~50 wires near the view instead
 * of thousands keeps both small. Until the canvas has a size, every wire is handed over.
 */
export function wiresInView(edges: CanvasEdge[], view: View): CanvasEdge[] {
  const { nodeLookup, transform, width, height } = view;
  if (!width || !height) return edges;
  const [x, y, zoom] = transform;
  const spanX = width / zoom;
  const spanY = height / zoom;
  const left = -x / zoom - spanX * WIRE_MARGIN_SCREENS;
  const top = -y / zoom - spanY * WIRE_MARGIN_SCREENS;
  const right = left + spanX * (1 + 2 * WIRE_MARGIN_SCREENS);
  const bottom = top + spanY * (1 + 2 * WIRE_MARGIN_SCREENS);
  const near: CanvasEdge[] = [];
  for (const edge of edges) {
    if (edge.selected) {
      near.push(edge);
      continue;
    }
    const source = nodeLookup.get(edge.source);
    const target = nodeLookup.get(edge.target);
    if (!source || !target) continue;
    if (
      Math.min(source.internals.positionAbsolute.x, target.internals.positionAbsolute.x) <= right &&
      Math.max(endX(source), endX(target)) >= left &&
      Math.min(source.internals.positionAbsolute.y, target.internals.positionAbsolute.y) <=
        bottom &&
      Math.max(endY(source), endY(target)) >= top
    )
      near.push(edge);
  }
  return near.length === edges.length ? edges : near;
}

const endX = (node: InternalNode<CanvasNode>) =>
  node.internals.positionAbsolute.x + (node.measured.width ?? node.width ?? 0);
const endY = (node: InternalNode<CanvasNode>) =>
  node.internals.positionAbsolute.y + (node.measured.height ?? node.height ?? 0);

/** Whether two lists hold the same wires in the same order (a new list of them is no change). */
export function sameWires(a: readonly CanvasEdge[], b: readonly CanvasEdge[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}
