import { useStore as useFlowStore, useStoreApi } from "@xyflow/react";
import { useEffect, useState } from "react";
import type { DocumentStore } from "../document/store.ts";
import type { CanvasEdge, CanvasNode } from "../document/types.ts";
import { DETAIL_ZOOM } from "../nodes/GenericNode.tsx";

const NO_EDGES: CanvasEdge[] = [];
const zoomedOut = (state: { transform: [number, number, number] }) =>
  state.transform[2] < DETAIL_ZOOM;

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
 * When zoomed out, nodes are plain boxes without handles, so no wire can be drawn: React
 * Flow then gets no edges, and mounts no edge wrappers (~1.2 per node) that would each run
 * a selector on every change.
 */
export function useFlowSync(store: DocumentStore): { nodes: CanvasNode[]; edges: CanvasEdge[] } {
  const flow = useStoreApi<CanvasNode, CanvasEdge>();
  const simple = useFlowStore(zoomedOut);
  // The first render's document seeds <ReactFlow>; the props never change after that.
  const [seed] = useState(() => ({
    nodes: store.getState().nodes,
    edges: simple ? NO_EDGES : store.getState().edges,
  }));

  useEffect(() => {
    const push = () => {
      const { nodes, edges } = store.getState();
      const current = flow.getState();
      if (current.nodes !== nodes) current.setNodes(nodes);
      const wanted = simple ? NO_EDGES : edges;
      if (current.edges !== wanted) current.setEdges(wanted);
    };
    push();
    return store.subscribe((state, before) => {
      if (state.nodes !== before.nodes || state.edges !== before.edges) push();
    });
  }, [store, flow, simple]);

  return seed;
}
