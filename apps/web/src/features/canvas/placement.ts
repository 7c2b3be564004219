import { findFreeSpot, nodeBoxes } from "@atelier/core";
import type { DocumentStore } from "../document/store.ts";
import type { CanvasNode } from "../document/types.ts";

/*
 * Placing a new node (core's findFreeSpot), loaded on the first add by place-node.ts rather
 * than with the editor: the first-load JavaScript is budgeted (DESIGN §7). Size hints come in
 * from the caller: importing them here would split the editor's chunks further.
 */

type Point = { x: number; y: number };
type Size = { width: number; height: number };
export type WithSizeHint = (node: CanvasNode) => CanvasNode;

const positive = (value: unknown, fallback: number) =>
  typeof value === "number" && Number.isFinite(value) && value > 0 ? value : fallback;

/** A node's size: measured once drawn, else its saved size or its type's size hint. */
function sizer(withSizeHint: WithSizeHint) {
  return (node: CanvasNode): Size => {
    const measured =
      node.measured?.width !== undefined ? node.measured : withSizeHint(node).measured;
    const style = (node.style ?? {}) as { width?: unknown; height?: unknown };
    return {
      width: positive(measured?.width, positive(style.width, 320)),
      height: positive(measured?.height, positive(style.height, 240)),
    };
  };
}

/**
 * Adds a node of `type` asked for at `at` (its top-left, or its centre when `centred`):
 * there, or at the nearest spot where it overlaps no node and keeps a gap from each.
 */
export function placeNode(
  store: DocumentStore,
  type: string,
  at: Point,
  centred: boolean,
  withSizeHint: WithSizeHint,
): CanvasNode {
  const sizeOf = sizer(withSizeHint);
  const state = store.getState();
  const size = sizeOf({ id: "", type, position: at, data: {} as CanvasNode["data"] });
  const corner = centred ? { x: at.x - size.width / 2, y: at.y - size.height / 2 } : at;
  return state.addNode(type, findFreeSpot(corner, size, nodeBoxes(state.nodes, sizeOf)));
}
