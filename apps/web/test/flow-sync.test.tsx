import { act, cleanup, render } from "@testing-library/react";
import { ReactFlowProvider, useStoreApi } from "@xyflow/react";
import { afterEach, expect, it, vi } from "vitest";
import { NODES_PER_TASK, useFlowSync } from "../src/features/canvas/flow-sync.ts";
import { createDocumentStore, type DocumentStore } from "../src/features/document/store.ts";
import type { CanvasNode } from "../src/features/document/types.ts";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

let flow: ReturnType<typeof useStoreApi> | null = null;
function Probe({ store }: { store: DocumentStore }) {
  useFlowSync(store);
  flow = useStoreApi();
  return null;
}

const nodes = (count: number): CanvasNode[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `n${index}`,
    type: "text",
    position: { x: index * 400, y: 0 },
    data: {},
  }));

it("hands a large load to React Flow 300 nodes per task, the wires last", () => {
  vi.useFakeTimers();
  const store = createDocumentStore();
  render(
    <ReactFlowProvider>
      <Probe store={store} />
    </ReactFlowProvider>,
  );
  const edges = [{ id: "e", source: "n0", target: "n1999" }];
  act(() => store.getState().load({ nodes: nodes(2000), edges }));
  const shown = () => [flow?.getState().nodes.length, flow?.getState().edges.length];
  expect(NODES_PER_TASK).toBe(300);
  expect(shown()).toEqual([300, 0]);
  // A change meanwhile (a node measured) continues the steps with the newest nodes.
  act(() => store.getState().onNodesChange([{ id: "n1", type: "select", selected: true }]));
  expect(flow?.getState().nodes[1]?.selected).toBe(true);
  expect(shown()).toEqual([300, 0]);
  for (const count of [600, 900, 1200, 1500, 1800]) {
    act(() => vi.runOnlyPendingTimers());
    expect(shown()).toEqual([count, 0]);
  }
  act(() => vi.runOnlyPendingTimers());
  expect(shown()).toEqual([2000, 1]);
  expect(flow?.getState().nodes).toBe(store.getState().nodes);
});

it("hands over a small load, and later edits, at once", () => {
  const store = createDocumentStore();
  render(
    <ReactFlowProvider>
      <Probe store={store} />
    </ReactFlowProvider>,
  );
  act(() => store.getState().load({ nodes: nodes(1500), edges: [] }));
  expect(flow?.getState().nodes).toHaveLength(1500);
  act(() => store.getState().addNode("text", { x: 0, y: 0 }));
  expect(flow?.getState().nodes).toHaveLength(1501);
});
