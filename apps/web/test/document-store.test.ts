import {
  type AlignMode,
  alignNodes,
  type DistributeAxis,
  distributeNodes,
  GROUP_COLORS,
} from "@atelier/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDocumentStore } from "../src/features/document/store.ts";
import type { CanvasNode } from "../src/features/document/types.ts";

function setup() {
  const store = createDocumentStore();
  const state = () => store.getState();
  const align = (mode: AlignMode) =>
    state().arrangeSelection("Align", (nodes) => alignNodes(nodes, mode));
  const distribute = (axis: DistributeAxis) =>
    state().arrangeSelection("Distribute", (nodes) => distributeNodes(nodes, axis));
  return { store, state, align, distribute };
}

const select = (store: ReturnType<typeof createDocumentStore>, ids: string[]) =>
  store.setState({
    nodes: store.getState().nodes.map((node) => ({ ...node, selected: ids.includes(node.id) })),
  });

const byId = (nodes: CanvasNode[], id: string) =>
  nodes.find((node) => node.id === id) as CanvasNode;

describe("document store", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("adds nodes from the catalogue with default parameters, and undoes/redoes it", () => {
    const { state } = setup();
    const node = state().addNode("flux-pro", { x: 10, y: 20 });
    expect(node.data).toMatchObject({
      label: "FLUX1.1 [pro]",
      status: "idle",
      inputValues: { imageSize: { value: "landscape_4_3" } },
    });
    expect(state().nodes).toHaveLength(1);
    expect(state().undo()).toBe("Add node");
    expect(state().nodes).toHaveLength(0);
    expect(state().redo()).toBe("Add node");
    expect(state().nodes.map((n) => n.id)).toEqual([node.id]);
  });

  it("connects through core's rules: type mismatch refused with its message, data type on the edge", () => {
    const { state } = setup();
    const text = state().addNode("text", { x: 0, y: 0 });
    const image = state().addNode("flux-pro", { x: 300, y: 0 });
    const video = state().addNode("kling-video", { x: 600, y: 0 });
    expect(
      state().connect({
        source: text.id,
        sourceHandle: "text",
        target: video.id,
        targetHandle: "image",
      }),
    ).toEqual({
      ok: false,
      message: "Type mismatch: Cannot connect text to image",
    });
    // An empty text node has nothing to give yet: refused silently.
    expect(
      state().connect({
        source: text.id,
        sourceHandle: "text",
        target: image.id,
        targetHandle: "prompt",
      }),
    ).toEqual({ ok: false, message: null });
    state().setParam(text.id, "text", "a red fox");
    expect(
      state().connect({
        source: text.id,
        sourceHandle: "text",
        target: image.id,
        targetHandle: "prompt",
      }),
    ).toEqual({ ok: true });
    expect(state().edges).toHaveLength(1);
    expect(state().edges[0]?.data).toEqual({ dataType: "text" });
    expect(state().undo()).toBe("Connect");
    expect(state().edges).toHaveLength(0);
  });

  it("records a drag once, after 1 s without movement", () => {
    const { state } = setup();
    const node = state().addNode("text", { x: 0, y: 0 });
    for (let step = 1; step <= 5; step++) {
      state().onNodesChange([
        { type: "position", id: node.id, position: { x: step * 10, y: 0 }, dragging: true },
      ]);
      vi.advanceTimersByTime(200);
    }
    expect(state().past.map((entry) => entry.label)).toEqual(["Add node"]);
    vi.advanceTimersByTime(1000);
    expect(state().past.map((entry) => entry.label)).toEqual(["Add node", "Move"]);
    expect(state().undo()).toBe("Move");
    expect(byId(state().nodes, node.id).position).toEqual({ x: 0, y: 0 });
  });

  it("says a drag is in progress from its first move until its drop", () => {
    const { state } = setup();
    const node = state().addNode("text", { x: 0, y: 0 });
    expect(state().isDragging()).toBe(false);
    const move = (x: number, dragging: boolean) =>
      state().onNodesChange([{ type: "position", id: node.id, position: { x, y: 0 }, dragging }]);
    move(10, true);
    expect(state().isDragging()).toBe(true);
    move(20, false);
    expect(state().isDragging()).toBe(false);
  });

  it("ignores selection changes in history", () => {
    const { state } = setup();
    const node = state().addNode("text", { x: 0, y: 0 });
    state().onNodesChange([{ type: "select", id: node.id, selected: false }]);
    state().onNodesChange([{ type: "select", id: node.id, selected: true }]);
    vi.advanceTimersByTime(2000);
    expect(state().past.map((entry) => entry.label)).toEqual(["Add node"]);
  });

  it("merges typing into one entry per node", () => {
    const { state } = setup();
    const node = state().addNode("text", { x: 0, y: 0 });
    for (const text of ["a", "a r", "a re", "a red fox"]) state().setParam(node.id, "text", text);
    vi.advanceTimersByTime(1000);
    expect(state().past.map((entry) => entry.label)).toEqual(["Add node", "Edit"]);
    state().undo();
    expect(byId(state().nodes, node.id).data.inputValues?.text?.value).toBe("");
  });

  it("keeps 50 history entries", () => {
    const { state } = setup();
    for (let index = 0; index < 60; index++) state().addNode("text", { x: index, y: 0 });
    expect(state().past).toHaveLength(50);
    let undone = 0;
    while (state().undo()) undone++;
    expect(undone).toBe(50);
    expect(state().nodes).toHaveLength(10);
  });

  it("records nothing for an edit of more than 20 nodes", () => {
    const { store, state, align } = setup();
    const nodes = Array.from({ length: 25 }, (_, index) => ({
      id: `n${index}`,
      type: "text",
      position: { x: index * 10, y: 0 },
      data: {},
    }));
    state().load({ nodes, edges: [] });
    select(
      store,
      nodes.map((node) => node.id),
    );
    expect(align("top")).toBeNull();
    state().duplicateSelection();
    expect(state().nodes).toHaveLength(50);
    expect(state().past).toHaveLength(0);
  });

  it("duplicates at +50/+50, processing becomes idle and errors go, edges between copies follow", () => {
    const { store, state } = setup();
    state().load({
      nodes: [
        { id: "a", type: "flux-pro", position: { x: 0, y: 0 }, data: { status: "processing" } },
        {
          id: "b",
          type: "kling-video",
          position: { x: 400, y: 0 },
          data: { status: "error", error: "Generation failed" },
        },
      ],
      edges: [{ id: "e", source: "a", sourceHandle: "image", target: "b", targetHandle: "image" }],
    });
    select(store, ["a", "b"]);
    state().duplicateSelection();
    const copies = state().nodes.filter((node) => node.id !== "a" && node.id !== "b");
    expect(copies.map((node) => node.position)).toEqual([
      { x: 50, y: 50 },
      { x: 450, y: 50 },
    ]);
    expect(copies[0]?.data).toEqual({ status: "idle" });
    expect(copies[1]?.data).toEqual({ status: "error" });
    expect(copies.every((node) => node.selected)).toBe(true);
    expect(state().edges).toHaveLength(2);
    expect(state().undo()).toBe("Duplicate");
    expect(state().nodes).toHaveLength(2);
  });

  it("copies and pastes, each paste another +50/+50", () => {
    const { store, state } = setup();
    state().load({
      nodes: [{ id: "a", type: "text", position: { x: 0, y: 0 }, data: {} }],
      edges: [],
    });
    select(store, ["a"]);
    expect(state().copySelection()).toBe(1);
    state().paste();
    state().paste();
    expect(state().nodes.map((node) => node.position)).toEqual([
      { x: 0, y: 0 },
      { x: 50, y: 50 },
      { x: 100, y: 100 },
    ]);
  });

  it("aligns (needs 2) and distributes (needs 3) with undo", () => {
    const { store, state, align, distribute } = setup();
    state().load({
      nodes: [
        { id: "a", type: "text", position: { x: 0, y: 0 }, width: 100, height: 50, data: {} },
        { id: "b", type: "text", position: { x: 150, y: 80 }, width: 100, height: 50, data: {} },
        { id: "c", type: "text", position: { x: 500, y: 30 }, width: 100, height: 50, data: {} },
      ],
      edges: [],
    });
    select(store, ["a"]);
    expect(align("left")).toBe("Align needs 2 or more selected nodes");
    select(store, ["a", "b"]);
    expect(distribute("horizontal")).toBe("Distribute needs 3 or more selected nodes");
    expect(align("top")).toBeNull();
    expect(byId(state().nodes, "b").position).toEqual({ x: 150, y: 0 });
    select(store, ["a", "b", "c"]);
    expect(distribute("horizontal")).toBeNull();
    expect(byId(state().nodes, "b").position.x).toBe(250);
    expect(state().undo()).toBe("Distribute");
    expect(state().undo()).toBe("Align");
    expect(byId(state().nodes, "b").position).toEqual({ x: 150, y: 80 });
  });

  it("groups with padding 20 and header 80 in a fresh colour, ignores grouped nodes, ungroups back", () => {
    const { store, state } = setup();
    state().load({
      nodes: [
        { id: "a", type: "text", position: { x: 100, y: 200 }, width: 100, height: 50, data: {} },
        { id: "b", type: "text", position: { x: 300, y: 260 }, width: 120, height: 60, data: {} },
      ],
      edges: [],
    });
    select(store, ["a", "b"]);
    expect(state().groupSelection()).toBe(true);
    const group = state().nodes.find((node) => node.type === "group") as CanvasNode;
    expect(group).toMatchObject({ position: { x: 80, y: 100 }, width: 360, height: 240 });
    expect(group.data.color).toBe(GROUP_COLORS[0]);
    expect(state().nodes[0]?.id).toBe(group.id);
    expect(byId(state().nodes, "a")).toMatchObject({
      parentId: group.id,
      position: { x: 20, y: 100 },
    });

    // Already grouped: nothing to group.
    select(store, ["a", "b"]);
    expect(state().groupSelection()).toBe(false);

    select(store, [group.id]);
    expect(state().ungroupSelection()).toBe(true);
    expect(state().nodes.some((node) => node.type === "group")).toBe(false);
    expect(byId(state().nodes, "a").position).toEqual({ x: 100, y: 200 });
    expect(byId(state().nodes, "a").parentId).toBeUndefined();
    expect(state().undo()).toBe("Ungroup");
    expect(byId(state().nodes, "a").parentId).toBe(group.id);
    expect(state().nodes[0]?.id).toBe(group.id);
  });

  it("gives each new group the next unused colour", () => {
    const { store, state } = setup();
    const colors: string[] = [];
    for (let index = 0; index < 3; index++) {
      const node = state().addNode("text", { x: index * 500, y: 0 });
      select(store, [node.id]);
      state().groupSelection();
      colors.push(
        String(
          state().nodes.find(
            (candidate) =>
              candidate.type === "group" && !colors.includes(String(candidate.data.color)),
          )?.data.color,
        ),
      );
    }
    expect(colors).toEqual([GROUP_COLORS[0], GROUP_COLORS[1], GROUP_COLORS[2]]);
  });

  it("deletes the selection with its edges, and a group with its children", () => {
    const { store, state } = setup();
    state().load({
      nodes: [
        { id: "g", type: "group", position: { x: 0, y: 0 }, data: {} },
        { id: "c", type: "text", position: { x: 20, y: 100 }, parentId: "g", data: {} },
        { id: "d", type: "flux-pro", position: { x: 600, y: 0 }, data: {} },
      ],
      edges: [{ id: "e", source: "c", target: "d" }],
    });
    select(store, ["g"]);
    state().deleteSelection();
    expect(state().nodes.map((node) => node.id)).toEqual(["d"]);
    expect(state().edges).toEqual([]);
    state().undo();
    const ids = state().nodes.map((node) => node.id);
    expect([...ids].sort()).toEqual(["c", "d", "g"]);
    expect(ids.indexOf("g")).toBeLessThan(ids.indexOf("c"));
    expect(state().edges).toHaveLength(1);
  });

  it("loads without history", () => {
    const { state } = setup();
    state().addNode("text", { x: 0, y: 0 });
    state().load({ nodes: [], edges: [] });
    expect(state().past).toEqual([]);
    expect(state().undo()).toBeNull();
  });

  it("loads nodes with a size and handles to cull by, dropped once drawn, not as an edit", async () => {
    const { state } = setup();
    state().load({
      nodes: [
        { id: "a", type: "flux-pro", position: { x: 0, y: 0 }, data: {} },
        { id: "b", type: "text", position: { x: 400, y: 0 }, width: 320, height: 190, data: {} },
      ],
      edges: [],
    });
    const [a, b] = state().nodes;
    expect(a?.measured?.width).toBe(320);
    expect(a?.measured?.height).toBeGreaterThan(100);
    expect(a?.handles?.map((handle) => `${handle.type}:${handle.id}`)).toContain("target:prompt");
    // A saved size is the hint and no longer pins the card's size.
    expect(b).toMatchObject({ measured: { width: 320, height: 190 } });
    expect(b?.width).toBeUndefined();
    state().drawn("a");
    expect(state().nodes[0]?.handles).toBeDefined();
    vi.advanceTimersByTime(0);
    expect(state().nodes[0]?.handles).toBeUndefined();
    expect(state().nodes[1]).toBe(b);
    state().onNodesChange([
      { id: "b", type: "dimensions", dimensions: { width: 320, height: 200 } },
    ]);
    expect(state().nodes[1]?.handles).toBeUndefined();
    state().flushPending();
    expect(state().past).toEqual([]);
  });

  it("drops the hint only of the nodes React Flow measured; the rest stay the same objects", () => {
    const { state } = setup();
    const at = (x: number) => ({ x, y: 0 });
    state().load({
      nodes: ["a", "b", "c"].map((id, index) => ({
        id,
        type: "flux-pro",
        position: at(index * 400),
        data: {},
      })),
      edges: [],
    });
    const [, b, c] = state().nodes;
    state().onNodesChange([
      { id: "a", type: "dimensions", dimensions: { width: 320, height: 300 } },
    ]);
    expect(state().nodes[0]?.handles).toBeUndefined();
    expect(state().nodes[1]).toBe(b);
    expect(state().nodes[2]).toBe(c);
  });
});
