import { useStore as useFlowStore, useStoreApi } from "@xyflow/react";
import { useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import type { DocumentStore } from "../document/store.ts";
import type { CanvasEdge, CanvasNode } from "../document/types.ts";
import { zoomedOut } from "../nodes/detail-level.ts";
import { boxesChanged } from "./boxes-changed.ts";
import { sameWires, wiresInView } from "./wires-in-view.ts";

const NO_EDGES: CanvasEdge[] = [];
/** A loaded document of more nodes than this reaches React Flow in steps. */
export const STEPPED_LOAD_NODES = 1600;
/**
 * Nodes handed to React Flow per step of a stepped load, one step a frame: rendering 300 took
 * ~45 ms, and React Flow measures every node mounted since the last frame in one task (its
 * ResizeObserver: 60–70 ms for back-to-back steps of 300, CDP trace of L1's warm open); at
 * 150 a frame the 10 MB warm open still had frames of 50–55 ms (measure, layout and paint).
 */
export const NODES_PER_TASK = 100;
/**
 * A step that took longer than this (handing over and rendering) makes the next ones smaller,
 * down to MIN_NODES_PER_TASK: on a slower device 100 nodes a step made tasks of 45–60 ms
 * (L1's warm open, long-animation-frame entries), each a long task that delays input.
 */
export const STEP_BUDGET_MS = 25;
export const MIN_NODES_PER_TASK = 25;

/** The next step's node count after a step of `size` nodes took `spentMs`. */
export function nextStepSize(size: number, spentMs: number): number {
  const fitted = Math.round((size * STEP_BUDGET_MS) / Math.max(spentMs, 1));
  return Math.max(MIN_NODES_PER_TASK, Math.min(NODES_PER_TASK, fitted));
}

/**
 * Runs `task` in a task of its own after the next frame (or after 100 ms in a hidden tab,
 * which draws no frames); answers the cancel.
 */
function afterNextFrame(task: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    cancelAnimationFrame(frame);
    clearTimeout(hidden);
    timer = setTimeout(task, 0);
  };
  const frame = requestAnimationFrame(run);
  const hidden = setTimeout(run, 100);
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(hidden);
    clearTimeout(timer);
  };
}

/**
 * Keeps React Flow's store in step with the document store, synchronously.
 *
 * A controlled `<ReactFlow nodes>` costs two React commits per change: the component holding
 * the prop renders, then React Flow copies the prop into its own store in an effect and
 * everything subscribed to that store renders. At 1000 nodes and one change per mouse move
 * that doubles the work of a drag (DESIGN §7). Here the props only seed React Flow; every
 * later document change is handed to React Flow's store in the same task (what React Flow
 * itself does with uncontrolled nodes), so a drag move is one commit that re-renders the
 * dragged node only, and the component that owns `<ReactFlow>` does not re-render at all.
 *
 * A loaded document of thousands of nodes (opened, imported, restored: the store counts
 * loads) is handed over in steps of up to 100 nodes (100 first, fewer after a step over
 * STEP_BUDGET_MS, more again after quick ones), one a frame in a task of its own (so React
 * Flow measures each step's nodes in the frame after it), then the wires in a task of their own (adopting 3,000 nodes
 * and 4,000 wires in one task took ~60–90 ms). Nothing is handed over in the task that
 * loaded the document, and changes during the steps wait for the next step (a measured size
 * handing over every node and wire at once was a 120 ms task). Edits never make steps: a
 * paste or an undo of thousands of nodes is handed over at once.
 *
 * React Flow holds only the wires near the view (wires-in-view.ts), taken again as the view
 * pans or zooms. When zoomed out, nodes are plain boxes and React Flow gets no edges, so it
 * mounts no edge wrappers (~1.2 per node) that would each run a selector on every change:
 * the wires are drawn on one canvas instead (ZoomedOutWires.tsx).
 */
export function useFlowSync(store: DocumentStore): {
  nodes: CanvasNode[];
  edges: CanvasEdge[];
  simple: boolean;
} {
  const flow = useStoreApi<CanvasNode, CanvasEdge>();
  const simple = useFlowStore(zoomedOut);
  // The first render's document seeds <ReactFlow>; the props never change after that.
  const [seed] = useState(() => ({
    nodes: store.getState().nodes,
    edges: simple ? NO_EDGES : wiresInView(store.getState().edges, flow.getState()),
  }));
  // A stepped load under way: how many nodes React Flow has been handed, and the load React
  // Flow has or is being given.
  const stepped = useRef<{ nodes: number; size: number; nodesSettled?: boolean } | null>(null);
  const handedLoad = useRef(store.getState().loads);

  useEffect(() => {
    let later: (() => void) | undefined;
    // The zoom as React Flow has it now: a view change crossing the detail threshold is seen
    // here before the canvas renders again (and `simple` follows).
    const wantedEdges = () => {
      const view = flow.getState();
      return zoomedOut(view) ? NO_EDGES : wiresInView(store.getState().edges, view);
    };
    const handWires = () => {
      const wanted = wantedEdges();
      if (!sameWires(flow.getState().edges, wanted)) flow.getState().setEdges(wanted);
    };
    // One step a task, always from the newest document: changes meanwhile (sizes measured
    // as nodes mount) join the next step instead of costing a hand-over of their own.
    const step = () => {
      later = undefined;
      const progress = stepped.current;
      if (!progress) return;
      const { nodes } = store.getState();
      const current = flow.getState();
      if (progress.nodes < nodes.length) {
        const began = performance.now();
        const size = progress.size;
        progress.nodes = Math.min(nodes.length, progress.nodes + size);
        const handed = progress.nodes === nodes.length ? nodes : nodes.slice(0, progress.nodes);
        // Rendered now rather than in React's microtask, so the step's time includes it.
        flushSync(() => current.setNodes(handed));
        progress.size = nextStepSize(size, performance.now() - began);
        // A change during that render may have asked for the next step already.
        later ??= afterNextFrame(step);
        return;
      }
      if (current.nodes !== nodes && !progress.nodesSettled) {
        // Nodes changed since their last step (sizes measured): one task of their own, then
        // the rest goes with the wires, so edits keep reaching React Flow.
        progress.nodesSettled = true;
        current.setNodes(nodes);
        later = afterNextFrame(step);
        return;
      }
      // The wires near the view in one task of their own: React Flow rebuilds its lookup of
      // every wire it holds on each setEdges, so handing them over in parts repeated that work.
      if (current.nodes !== nodes) current.setNodes(nodes);
      current.setEdges(wantedEdges());
      stepped.current = null;
    };
    const push = (moved = true) => {
      const { nodes, loads } = store.getState();
      const current = flow.getState();
      if (loads !== handedLoad.current) {
        // A new document (opened, imported, restored): a large one reaches React Flow in
        // steps from its first node, even when it replaces one still arriving in steps.
        handedLoad.current = loads;
        stepped.current =
          nodes.length > STEPPED_LOAD_NODES ? { nodes: 0, size: NODES_PER_TASK } : null;
        // The wires of the document replaced go now; its nodes with the first step.
        if (stepped.current && current.edges.length > 0) current.setEdges(NO_EDGES);
      }
      if (stepped.current) {
        later ??= afterNextFrame(step);
        return;
      }
      if (current.nodes !== nodes) current.setNodes(nodes);
      if (moved) handWires();
    };
    push();
    const unsubscribe = store.subscribe((state, before) => {
      if (state.nodes === before.nodes && state.edges === before.edges) return;
      // Typing into a node changes its data only: the wires near the view stay the same, and
      // finding them again walks every wire on each key.
      push(state.edges !== before.edges || boxesChanged(before.nodes, state.nodes));
    });
    // Panning and zooming bring other wires near the view.
    const unsubscribeView = flow.subscribe((state, before) => {
      if (stepped.current) return;
      if (
        state.transform !== before.transform ||
        state.width !== before.width ||
        state.height !== before.height
      )
        handWires();
    });
    return () => {
      later?.();
      unsubscribe();
      unsubscribeView();
    };
  }, [store, flow]);

  return { ...seed, simple };
}
