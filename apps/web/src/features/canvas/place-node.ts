import { withSizeHint } from "../document/size-hints.ts";
import type { DocumentStore } from "../document/store.ts";
import type { CanvasNode } from "../document/types.ts";

type Point = { x: number; y: number };
type Size = { width: number; height: number };
type Placement = typeof import("./placement.ts");

let loading: Promise<Placement> | undefined;

/** The free-spot search, loaded once on first use (or ahead of it, when a search opens). */
export function loadPlacement(): Promise<Placement> {
  loading ??= import("./placement.ts").catch((error: unknown) => {
    loading = undefined; // tried again next time
    throw error;
  });
  return loading;
}

const positive = (value: unknown, fallback: number) =>
  typeof value === "number" && Number.isFinite(value) && value > 0 ? value : fallback;

/** A node's size: measured once drawn, else its saved size or its type's size hint. */
function sizeOf(node: CanvasNode): Size {
  const measured = node.measured?.width !== undefined ? node.measured : withSizeHint(node).measured;
  const style = (node.style ?? {}) as { width?: unknown; height?: unknown };
  return {
    width: positive(measured?.width, positive(style.width, 320)),
    height: positive(measured?.height, positive(style.height, 240)),
  };
}

/**
 * Adds a node of `type` asked for at `at` (its top-left in flow units, or its centre when
 * `centred`): there, or at the nearest spot where it overlaps no node and keeps a gap from
 * each, as the nodes are when the search has loaded. Should the search fail to load, the
 * node goes where it was asked for.
 */
export async function addNodeNear(
  store: DocumentStore,
  type: string,
  at: Point,
  centred = false,
): Promise<CanvasNode> {
  const placement = await loadPlacement().catch(() => null);
  const state = store.getState();
  const size = sizeOf({ id: "", type, position: at, data: {} as CanvasNode["data"] });
  const corner = centred ? { x: at.x - size.width / 2, y: at.y - size.height / 2 } : at;
  const spot = placement
    ? placement.findFreeSpot(corner, size, placement.nodeBoxes(state.nodes, sizeOf))
    : corner;
  return state.addNode(type, spot);
}
