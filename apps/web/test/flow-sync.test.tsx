import { act, cleanup, render } from "@testing-library/react";
import { ReactFlowProvider, useStoreApi } from "@xyflow/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { boxesChanged } from "../src/features/canvas/boxes-changed.ts";
import {
  MIN_NODES_PER_TASK,
  NODES_PER_TASK,
  nextStepSize,
  STEP_BUDGET_MS,
  useFlowSync,
} from "../src/features/canvas/flow-sync.ts";
import { createDocumentStore, type DocumentStore } from "../src/features/document/store.ts";
import type { CanvasNode } from "../src/features/document/types.ts";

// How often the wires near the view are looked for (every wire's two ends each time).
const looked = vi.hoisted(() => ({ times: 0 }));
vi.mock("../src/features/canvas/wires-in-view.ts", async (original) => {
  const module = await original<typeof import("../src/features/canvas/wires-in-view.ts")>();
  return {
    ...module,
    wiresInView: (...args: Parameters<typeof module.wiresInView>) => {
      looked.times++;
      return module.wiresInView(...args);
    },
  };
});

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

/** A document store whose changes reach a mounted React Flow store through useFlowSync. */
function mounted(): DocumentStore {
  const store = createDocumentStore();
  render(
    <ReactFlowProvider>
      <Probe store={store} />
    </ReactFlowProvider>,
  );
  return store;
}

const nodes = (count: number): CanvasNode[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `n${index}`,
    type: "text",
    position: { x: index * 400, y: 0 },
    data: {},
  }));

/** One step of a stepped load: it runs in a task of its own after the next frame. */
const nextStep = () =>
  act(() => {
    vi.advanceTimersToNextFrame();
    // A timer set during a tick runs a millisecond later with fake timers.
    vi.advanceTimersByTime(1);
  });

it("hands a large load to React Flow 100 nodes a frame, the wires last", () => {
  vi.useFakeTimers();
  const store = mounted();
  const edges = Array.from({ length: 2500 }, (_, index) => ({
    id: `e${index}`,
    source: "n0",
    target: `n${index % 2000}`,
  }));
  act(() => store.getState().load({ nodes: nodes(2000), edges }));
  const shown = () => [flow?.getState().nodes.length, flow?.getState().edges.length];
  expect(NODES_PER_TASK).toBe(100);
  // Nothing in the task that loaded the document, nor before the next frame.
  expect(shown()).toEqual([0, 0]);
  act(() => vi.advanceTimersByTime(0));
  expect(shown()).toEqual([0, 0]);
  nextStep();
  expect(shown()).toEqual([100, 0]);
  // A change meanwhile (a node measured) waits for the next step, which takes the newest nodes.
  act(() => store.getState().onNodesChange([{ id: "n1", type: "select", selected: true }]));
  expect(shown()).toEqual([100, 0]);
  expect(flow?.getState().nodes[1]?.selected).toBeFalsy();
  // The fake clock stands still: every step is within budget, so each takes 100.
  for (let count = 200; count <= 2000; count += 100) {
    nextStep();
    expect(shown()).toEqual([Math.min(count, 2000), 0]);
  }
  expect(flow?.getState().nodes[1]?.selected).toBe(true);
  // A change after the last nodes' step still waits, and is handed over in a task of its
  // own; the wires come next, in one task.
  act(() => store.getState().onNodesChange([{ id: "n2", type: "select", selected: true }]));
  expect(shown()).toEqual([2000, 0]);
  nextStep();
  expect(shown()).toEqual([2000, 0]);
  expect(flow?.getState().nodes[2]?.selected).toBe(true);
  nextStep();
  expect(shown()).toEqual([2000, 2500]);
  expect(flow?.getState().nodes).toBe(store.getState().nodes);
  expect(flow?.getState().edges).toBe(store.getState().edges);
  expect(vi.getTimerCount()).toBe(0);
  // Done: later edits are handed over at once.
  act(() => store.getState().addNode("text", { x: 0, y: 0 }));
  expect(flow?.getState().nodes).toHaveLength(2001);
});

it("starts over from the first step when another large workflow opens mid-steps", () => {
  vi.useFakeTimers();
  const store = mounted();
  const shown = () => [flow?.getState().nodes.length, flow?.getState().edges.length];
  act(() => store.getState().load({ nodes: nodes(2000), edges: [] }));
  for (let step = 0; step < 3; step++) nextStep();
  expect(shown()).toEqual([300, 0]);
  const other = nodes(1800).map((node) => ({ ...node, id: `b${node.id}` }));
  act(() =>
    store.getState().load({ nodes: other, edges: [{ id: "w", source: "bn0", target: "bn1" }] }),
  );
  nextStep();
  expect(shown()).toEqual([100, 0]);
  expect(flow?.getState().nodes[0]?.id).toBe("bn0");
  for (let step = 0; step < 18; step++) nextStep();
  expect(shown()).toEqual([1800, 1]);
  expect(flow?.getState().nodes).toBe(store.getState().nodes);
  expect(vi.getTimerCount()).toBe(0);
});

it("makes the next steps smaller after a slow one, and larger again after quick ones", () => {
  vi.useFakeTimers();
  const store = mounted();
  const shown = () => flow?.getState().nodes.length;
  // Each hand-over of nodes takes 100 ms on the (fake) clock while `slow` holds.
  let slow = true;
  const flowStore = flow;
  if (!flowStore) throw new Error("React Flow's store is not mounted");
  const unsubscribe = flowStore.subscribe((state, before) => {
    if (slow && state.nodes !== before.nodes) vi.advanceTimersByTime(100);
  });
  act(() => store.getState().load({ nodes: nodes(2000), edges: [] }));
  nextStep();
  expect(shown()).toBe(100);
  // 100 nodes in 100 ms: 25 fit the budget.
  nextStep();
  expect(shown()).toBe(125);
  // 25 in 100 ms: 6 would fit, but a step takes at least 25.
  nextStep();
  expect(shown()).toBe(150);
  slow = false;
  nextStep();
  expect(shown()).toBe(175);
  // Quick again: back to 100 a step.
  nextStep();
  expect(shown()).toBe(275);
  unsubscribe();
});

it("sizes a step to the budget, between the minimum and 100 nodes", () => {
  expect(STEP_BUDGET_MS).toBe(25);
  expect(nextStepSize(100, 50)).toBe(50);
  expect(nextStepSize(50, 25)).toBe(50);
  expect(nextStepSize(50, 10)).toBe(NODES_PER_TASK);
  expect(nextStepSize(100, 1000)).toBe(MIN_NODES_PER_TASK);
  expect(nextStepSize(25, 0)).toBe(NODES_PER_TASK);
});

it("hands over a small workflow opened mid-steps, and a large paste, at once", () => {
  vi.useFakeTimers();
  const store = mounted();
  act(() => store.getState().load({ nodes: nodes(2000), edges: [] }));
  nextStep();
  act(() => store.getState().load({ nodes: nodes(1000), edges: [] }));
  expect(flow?.getState().nodes).toHaveLength(1000);
  nextStep();
  expect(flow?.getState().nodes).toBe(store.getState().nodes);
  // An edit that grows the canvas past the threshold is not a load: no steps.
  act(() => {
    store.getState().selectAll();
    store.getState().duplicateSelection();
  });
  expect(flow?.getState().nodes).toHaveLength(2000);
  expect(flow?.getState().nodes).toBe(store.getState().nodes);
});

it("hands over a small load, and later edits, at once", () => {
  const store = mounted();
  act(() => store.getState().load({ nodes: nodes(1500), edges: [] }));
  expect(flow?.getState().nodes).toHaveLength(1500);
  act(() => store.getState().addNode("text", { x: 0, y: 0 }));
  expect(flow?.getState().nodes).toHaveLength(1501);
});

describe("wires near the view", () => {
  // Nodes 400 px apart on a row; wire i joins node i to node i + 1.
  const row = (count: number) => ({
    nodes: nodes(count),
    edges: Array.from({ length: count - 1 }, (_, index) => ({
      id: `w${index}`,
      source: `n${index}`,
      target: `n${index + 1}`,
    })),
  });
  const held = () => flow?.getState().edges.map((edge) => edge.id);
  const wires = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, index) => `w${from + index}`);

  it("gives React Flow the wires within a screen of the view, and more as the view pans", () => {
    const store = mounted();
    // A 1000 × 800 canvas at zoom 1 showing x 0–1000: wires reaching x -1000–2000 are held
    // (wire i spans x 400i to 400i + 400 + a card's 320 px width).
    act(() => flow?.setState({ width: 1000, height: 800, transform: [0, 0, 1] }));
    act(() => store.getState().load(row(20)));
    expect(held()).toEqual(wires(0, 5));
    // Panned 4000 px right (x 4000–5000 in view): wires reaching x 3000–6000.
    act(() => flow?.setState({ transform: [-4000, 0, 1] }));
    expect(held()).toEqual(wires(6, 15));
    // Zoomed out to 0.5 there, a screen is 2000 px wide: x 2000–8000.
    act(() => flow?.setState({ transform: [-2000, 0, 0.5] }));
    expect(held()).toEqual(wires(4, 18));
    // Below the detail zoom nodes are boxes without handles: no wires, then back again.
    act(() => flow?.setState({ transform: [-1000, 0, 0.25] }));
    expect(held()).toEqual([]);
    act(() => flow?.setState({ transform: [-2000, 0, 0.5] }));
    expect(held()).toEqual(wires(4, 18));
  });

  it("keeps a selected wire wherever it is, and hands wires over when they change", () => {
    const store = mounted();
    act(() => flow?.setState({ width: 1000, height: 800, transform: [0, 0, 1] }));
    act(() => store.getState().load(row(20)));
    act(() => store.getState().onEdgesChange([{ id: "w18", type: "select", selected: true }]));
    expect(held()).toEqual([...wires(0, 5), "w18"]);
    // A node moved into view brings its wires.
    act(() =>
      store.getState().onNodesChange([{ id: "n12", type: "position", position: { x: 500, y: 0 } }]),
    );
    expect(held()).toEqual([...wires(0, 5), "w11", "w12", "w18"]);
  });

  it("looks for wires again after a box changes, not after a data-only edit", () => {
    const [a, b] = nodes(2) as [CanvasNode, CanvasNode];
    const list = [a, b];
    // Typing into a prompt: new data, same box.
    expect(boxesChanged(list, [a, { ...b, data: { label: "fox" } }])).toBe(false);
    expect(boxesChanged(list, list)).toBe(false);
    expect(boxesChanged(list, [a, { ...b, position: { x: 0, y: 9 } }])).toBe(true);
    expect(boxesChanged(list, [a, { ...b, measured: { width: 320, height: 90 } }])).toBe(true);
    expect(boxesChanged(list, [a, { ...b, parentId: "g" }])).toBe(true);
    expect(boxesChanged(list, [a, { ...b, hidden: true }])).toBe(true);
    expect(boxesChanged(list, [a])).toBe(true);
    expect(boxesChanged(list, [b, a])).toBe(true);
  });

  it("hands a data-only edit to React Flow without looking for the wires again", () => {
    const store = mounted();
    act(() => flow?.setState({ width: 1000, height: 800, transform: [0, 0, 1] }));
    act(() => store.getState().load(row(20)));
    const before = looked.times;
    act(() => store.getState().setParam("n2", "text", "a fox at dusk"));
    expect(flow?.getState().nodes).toBe(store.getState().nodes);
    expect(held()).toEqual(wires(0, 5));
    expect(looked.times).toBe(before);
    // A move looks again.
    act(() =>
      store.getState().onNodesChange([{ id: "n2", type: "position", position: { x: 900, y: 0 } }]),
    );
    expect(looked.times).toBe(before + 1);
  });

  it("holds every wire while the canvas has no size", () => {
    const store = mounted();
    act(() => store.getState().load(row(20)));
    expect(flow?.getState().edges).toBe(store.getState().edges);
  });
});
