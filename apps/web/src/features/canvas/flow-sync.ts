import { useStore as useFlowStore, useStoreApi } from "@xyflow/react";
import { useEffect, useState } from "react";
import type { DocumentStore } from "../document/store.ts";
import type { CanvasEdge, CanvasNode } from "../document/types.ts";
import { zoomedOut } from "../nodes/detail-level.ts";

const NO_EDGES: CanvasEdge[] = [];
/** A load of more nodes than this onto an (almost) empty canvas reaches React Flow in steps. */
export const STEPPED_LOAD_NODES = 1600;
/**
 * Nodes handed to React Flow per task in a stepped load: mounting and measuring 800 took
 * 60–80 ms on a slow core; 300 keep each task well under the 50 ms of a long task.
 */
export const NODES_PER_TASK = 300;
/** Wires handed over per task at the end of a stepped load (4,000 at once took ~50 ms). */
export const EDGES_PER_TASK = 1000;

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
 * A load of thousands of nodes onto an empty canvas is handed over in steps of 300 nodes, a
 * task each, then the wires 1,000 a task (adopting 3,000 nodes and 4,000 wires in one task
 * took ~60–90 ms).
 *
 * When zoomed out, nodes are plain boxes without handles, so no wire can be drawn: React
 * Flow then gets no edges, and mounts no edge wrappers (~1.2 per node) that would each run
 * a selector on every change.
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
    edges: simple ? NO_EDGES : store.getState().edges,
  }));

  useEffect(() => {
    let later: ReturnType<typeof setTimeout> | undefined;
    // Nodes handed over so far in a stepped load (0: none under way).
    let handed = 0;
    const push = () => {
      clearTimeout(later);
      const { nodes, edges } = store.getState();
      const current = flow.getState();
      const wanted = simple ? NO_EDGES : edges;
      const large = nodes.length > STEPPED_LOAD_NODES && current.nodes.length < NODES_PER_TASK;
      if (handed > 0 || large) {
        // A large workflow arriving on an (almost) empty canvas: React Flow takes it in
        // steps, one task each, and the wires last (they need every node). Changes meanwhile
        // (measured sizes) continue the steps with the newest nodes.
        if (handed === 0 && current.edges.length > 0) current.setEdges(NO_EDGES);
        const wires = (count: number) => {
          const done = count >= wanted.length;
          flow.getState().setEdges(done ? wanted : wanted.slice(0, count));
          if (!done) later = setTimeout(() => wires(count + EDGES_PER_TASK), 0);
        };
        const step = (count: number) => {
          const done = count >= nodes.length;
          flow.getState().setNodes(done ? nodes : nodes.slice(0, count));
          handed = done ? 0 : count;
          if (!done) later = setTimeout(() => step(count + NODES_PER_TASK), 0);
          else if (flow.getState().edges !== wanted) wires(EDGES_PER_TASK);
        };
        step(handed || NODES_PER_TASK);
        return;
      }
      if (current.nodes !== nodes) current.setNodes(nodes);
      if (current.edges !== wanted) current.setEdges(wanted);
    };
    push();
    const unsubscribe = store.subscribe((state, before) => {
      if (state.nodes !== before.nodes || state.edges !== before.edges) push();
    });
    return () => {
      clearTimeout(later);
      unsubscribe();
    };
  }, [store, flow, simple]);

  return { ...seed, simple };
}
