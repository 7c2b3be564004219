import type { InternalNode, NodeChange, ReactFlowState, XYPosition } from "@xyflow/react";
import type { CanvasEdge, CanvasNode } from "../document/types.ts";
import { zoomedOut } from "../nodes/detail-level.ts";

/** The canvas's class while a live drag lasts. */
export const LIVE_DRAG_CLASS = "live-dragging";

/** Beyond this many dragged nodes a drag goes through the document as any edit does. */
export const LIVE_DRAG_LIMIT = 200;

type FlowState = Pick<
  ReactFlowState<CanvasNode, CanvasEdge>,
  "transform" | "nodeLookup" | "parentLookup"
>;

type Lookup = Pick<ReadonlyMap<string, InternalNode<CanvasNode>>, "get">;

/**
 * A drag among plain boxes (zoomed out), ahead of the document. React Flow reports each
 * move as position changes; handed to the document, every move re-ran React Flow's work
 * over every node it holds (adopting the node list, culling, a selector per drawn box) and
 * React's walk over thousands of box wrappers to re-render the one moved: ~10 ms a move at
 * 2,000 boxes, most of the drag's frame (bench C1, C5, P1). Here the moves only rewrite
 * the dragged boxes' transforms (what React Flow itself would write) and are kept as live
 * positions, which the zoomed-out wires are drawn from (ZoomedOutWires.tsx). The first move
 * of a drag and the move that ends it reach the document, and with it React Flow: the
 * document knows a drag is under way, and records it as one edit (undo: "Move").
 *
 * Zoomed in, nodes are full cards whose wires React Flow draws as it moves them, so their
 * drags go through the document as before; so do drags of groups (their members are moved
 * by React Flow from the group's position), and of boxes React Flow has not drawn.
 */
export interface LiveDrag {
  /** Takes `changes` when they are moves of a zoomed-out drag; false leaves them to the document. */
  take(changes: readonly NodeChange<CanvasNode>[], flow: FlowState, root: HTMLElement): boolean;
  /**
   * Told of every change the document took: a drag's first move marks its nodes as begun
   * (their next moves can be live); a drop, or any other move, forgets their live positions.
   */
  applied(changes: readonly NodeChange<CanvasNode>[]): void;
  /** Where the dragged boxes are now, by node id (flow coordinates, top left). */
  readonly positions: ReadonlyMap<string, XYPosition>;
  /** Forgets any drag under way (zoomed back in: its next move goes to the document). */
  end(): void;
  /** Called after every change of `positions`; answers the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

export function createLiveDrag(): LiveDrag {
  const positions = new Map<string, XYPosition>();
  // Nodes whose drag the document has seen begin: their first move goes to the document,
  // so it knows a drag is under way (journal writes wait for the drop) and React Flow keeps
  // drawing the dragged boxes however far the view moves from where the drag began.
  const begun = new Set<string>();
  const elements = new Map<string, HTMLElement>();
  const listeners = new Set<() => void>();
  // The canvas marked while a live drag lasts: React Flow's frame around a multiple
  // selection stays where the drag began until it ends, so it is hidden meanwhile.
  let marked: HTMLElement | null = null;
  const changed = () => {
    for (const listener of listeners) listener();
  };

  const elementOf = (id: string, root: ParentNode): HTMLElement | null => {
    const known = elements.get(id);
    if (known?.isConnected) return known;
    const found = root.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`);
    if (found) elements.set(id, found);
    else elements.delete(id);
    return found;
  };

  return {
    positions,
    take(changes, flow, root) {
      if (!zoomedOut(flow) || changes.length === 0 || changes.length > LIVE_DRAG_LIMIT)
        return false;
      const moves: { id: string; element: HTMLElement; at: XYPosition }[] = [];
      for (const change of changes) {
        if (change.type !== "position" || change.dragging !== true || !change.position)
          return false;
        if (!begun.has(change.id)) return false;
        const node = flow.nodeLookup.get(change.id);
        if (!node || flow.parentLookup.has(change.id)) return false;
        const element = elementOf(change.id, root);
        if (!element) return false;
        const parent = node.parentId ? flow.nodeLookup.get(node.parentId) : undefined;
        if (node.parentId && !parent) return false;
        const origin = parent?.internals.positionAbsolute ?? { x: 0, y: 0 };
        moves.push({
          id: change.id,
          element,
          at: { x: origin.x + change.position.x, y: origin.y + change.position.y },
        });
      }
      for (const { id, element, at } of moves) {
        element.style.transform = `translate(${at.x}px,${at.y}px)`;
        positions.set(id, at);
      }
      if (!marked) {
        marked = root;
        root.classList.add(LIVE_DRAG_CLASS);
      }
      changed();
      return true;
    },
    applied(changes) {
      let settled = false;
      for (const change of changes) {
        if (change.type !== "position" && change.type !== "remove") continue;
        if (change.type === "position" && change.dragging === true) begun.add(change.id);
        else begun.delete(change.id);
        settled = positions.delete(change.id) || settled;
      }
      if (positions.size === 0) {
        elements.clear();
        marked?.classList.remove(LIVE_DRAG_CLASS);
        marked = null;
      }
      if (settled) changed();
    },
    end() {
      positions.clear();
      begun.clear();
      elements.clear();
      marked?.classList.remove(LIVE_DRAG_CLASS);
      marked = null;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * `lookup` with the live positions of dragged nodes in place of React Flow's (which has
 * them where the drag began until it ends).
 */
export function withLivePositions(
  lookup: Lookup,
  positions: ReadonlyMap<string, XYPosition>,
): Lookup {
  if (positions.size === 0) return lookup;
  return {
    get(id) {
      const node = lookup.get(id);
      const at = positions.get(id);
      if (!node || !at) return node;
      return { ...node, internals: { ...node.internals, positionAbsolute: at } };
    },
  };
}
