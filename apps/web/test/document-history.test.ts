import { GROUP_COLORS } from "@atelier/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDocumentStore } from "../src/features/document/store.ts";
import type { CanvasNode } from "../src/features/document/types.ts";

/* Undo history against edits it does not record (SPEC §4 "Undo history"). */

function setup() {
  const store = createDocumentStore();
  const state = () => store.getState();
  const select = (ids: string[]) =>
    store.setState({
      nodes: state().nodes.map((node) => ({ ...node, selected: ids.includes(node.id) })),
    });
  const byId = (id: string) => state().nodes.find((node) => node.id === id) as CanvasNode;
  return { store, state, select, byId };
}

const texts = (count: number): CanvasNode[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `n${index}`,
    type: "text",
    position: { x: index * 400, y: 0 },
    data: {},
  }));

const groupColors = (nodes: CanvasNode[]) =>
  nodes.filter((node) => node.type === "group").map((node) => node.data.color);

describe("undo history and unrecorded edits", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("an edit too large to record clears the undo and redo history", () => {
    const { state } = setup();
    for (let index = 0; index < 27; index++) state().addNode("text", { x: index * 400, y: 0 });
    expect(state().undo()).toBe("Add node");
    state().selectAll();
    state().deleteSelection();
    expect(state().nodes).toHaveLength(0);
    // Nothing to undo: no stale "Add node" with no visible change, no deleted node back.
    expect(state().undo()).toBeNull();
    expect(state().redo()).toBeNull();
    expect(state().nodes).toHaveLength(0);
    expect(state().past).toEqual([]);
    expect(state().future).toEqual([]);
  });

  it("a paste of more than 20 nodes clears the history instead of undoing an older edit", () => {
    const { state } = setup();
    for (let index = 0; index < 21; index++) state().addNode("text", { x: index * 400, y: 0 });
    state().selectAll();
    state().copySelection();
    expect(state().paste()).toBe(21);
    expect(state().nodes).toHaveLength(42);
    expect(state().undo()).toBeNull();
    expect(state().nodes).toHaveLength(42);
  });

  it("a drag of more than 20 nodes clears the history once it settles", () => {
    const { state } = setup();
    state().load({ nodes: texts(21), edges: [] });
    const drag = (ids: string[], y: number) =>
      state().onNodesChange(
        ids.map((id) => ({ type: "position", id, position: { x: 0, y }, dragging: true })),
      );
    drag(["n0"], 100);
    vi.advanceTimersByTime(1000);
    expect(state().past.map((entry) => entry.label)).toEqual(["Move"]);
    drag(
      state().nodes.map((node) => node.id),
      300,
    );
    vi.advanceTimersByTime(1000);
    expect(state().undo()).toBeNull();
    expect(state().nodes.every((node) => node.position.y === 300)).toBe(true);
  });

  it("undo never reports an edit that changes nothing: a node dragged back to its place", () => {
    const { state, byId } = setup();
    const node = state().addNode("text", { x: 0, y: 0 });
    const move = (x: number, dragging: boolean) =>
      state().onNodesChange([{ type: "position", id: node.id, position: { x, y: 0 }, dragging }]);
    move(40, true);
    move(0, false);
    vi.advanceTimersByTime(1000);
    expect(state().past.map((entry) => entry.label)).toEqual(["Add node"]);
    expect(state().undo()).toBe("Add node");
    expect(state().nodes).toHaveLength(0);
    expect(state().redo()).toBe("Add node");
    expect(byId(node.id).position).toEqual({ x: 0, y: 0 });
  });

  it("undo after a change that bypassed history reverts nothing and reports nothing", () => {
    const { store, state, byId } = setup();
    const node = state().addNode("text", { x: 0, y: 0 });
    // View changes (measured, selected) leave the entry valid.
    state().onNodesChange([
      { type: "dimensions", id: node.id, dimensions: { width: 320, height: 200 } },
      { type: "select", id: node.id, selected: false },
    ]);
    state().setParam(node.id, "text", "kept");
    vi.advanceTimersByTime(1000);
    expect(state().undo()).toBe("Edit");
    expect(state().redo()).toBe("Edit");
    store.setState({
      nodes: state().nodes.map((n) => ({ ...n, position: { x: 900, y: 900 } })),
    });
    expect(state().undo()).toBeNull();
    expect(byId(node.id)).toMatchObject({ position: { x: 900, y: 900 } });
    expect(byId(node.id).data.inputValues?.text?.value).toBe("kept");
    expect(state().past).toEqual([]);
  });

  it("a load clears the undo and redo history", () => {
    const { state } = setup();
    state().addNode("text", { x: 0, y: 0 });
    state().addNode("text", { x: 400, y: 0 });
    state().undo();
    state().load({ nodes: texts(1), edges: [] });
    expect(state().undo()).toBeNull();
    expect(state().redo()).toBeNull();
    expect(state().nodes.map((node) => node.id)).toEqual(["n0"]);
  });

  it("a run result written into a node survives undo and redo of the node's earlier edits", () => {
    const { state, byId } = setup();
    const node = state().addNode("text", { x: 0, y: 0 });
    state().setParam(node.id, "text", "a red fox");
    vi.advanceTimersByTime(1000);
    const result = { status: "complete" as const, outputs: { text: "a red fox, running" } };
    state().applyExternal(new Map([[node.id, { ...byId(node.id).data, ...result }]]));

    expect(state().undo()).toBe("Edit");
    expect(byId(node.id).data).toMatchObject({ ...result, inputValues: { text: { value: "" } } });
    expect(state().redo()).toBe("Edit");
    expect(byId(node.id).data).toMatchObject({
      ...result,
      inputValues: { text: { value: "a red fox" } },
    });
    // Removed and brought back, the node comes back with its result.
    state().undo();
    expect(state().undo()).toBe("Add node");
    expect(state().redo()).toBe("Add node");
    expect(byId(node.id).data).toMatchObject(result);
  });

  it("a run result arriving while the user types is not part of the typing's undo entry", () => {
    const { state, byId } = setup();
    const node = state().addNode("text", { x: 0, y: 0 });
    state().setParam(node.id, "text", "a");
    const result = { status: "complete" as const, outputs: { text: "done" } };
    state().applyExternal(new Map([[node.id, { ...byId(node.id).data, ...result }]]));
    state().setParam(node.id, "text", "ab");
    vi.advanceTimersByTime(1000);
    expect(state().undo()).toBe("Edit");
    expect(byId(node.id).data).toMatchObject({ ...result, inputValues: { text: { value: "" } } });
  });

  it("resizing a group is one undoable entry, recorded after 1 s idle", () => {
    const { state, byId } = setup();
    state().load({
      nodes: [
        { id: "g", type: "group", position: { x: 0, y: 0 }, width: 300, height: 200, data: {} },
      ],
      edges: [],
    });
    // What React Flow's NodeResizer sends when the bottom-right corner is dragged.
    for (const width of [320, 360, 400])
      state().onNodesChange([
        {
          type: "dimensions",
          id: "g",
          dimensions: { width, height: 250 },
          resizing: true,
          setAttributes: true,
        },
      ]);
    state().onNodesChange([
      { type: "dimensions", id: "g", dimensions: { width: 400, height: 250 }, resizing: false },
    ]);
    vi.advanceTimersByTime(1000);
    expect(state().past.map((entry) => entry.label)).toEqual(["Resize"]);
    expect(state().undo()).toBe("Resize");
    expect(byId("g")).toMatchObject({ width: 300, height: 200 });
  });
});

describe("group colours and history", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("group, ungroup, group again: undo never brings back a colour in use while one is free", () => {
    const { state, select } = setup();
    state().load({ nodes: [...texts(25), ...texts(26).slice(25)], edges: [] });
    select(["n25"]);
    state().groupSelection();
    const first = state().nodes.find((node) => node.type === "group") as CanvasNode;
    select([first.id]);
    state().ungroupSelection();
    // 25 nodes: the group takes the next colour of the round, and is too large to record.
    select(texts(25).map((node) => node.id));
    state().groupSelection();
    expect(groupColors(state().nodes)).toEqual([GROUP_COLORS[1]]);
    state().undo();
    const colors = groupColors(state().nodes);
    expect(new Set(colors).size).toBe(colors.length);
  });

  it("a group added from the palette takes the next unused colour", () => {
    const { state, select } = setup();
    state().load({ nodes: texts(1), edges: [] });
    select(["n0"]);
    state().groupSelection();
    const added = state().addNode("group", { x: 0, y: 600 });
    expect(added.data.color).toBe(GROUP_COLORS[1]);
    expect(groupColors(state().nodes)).toEqual([GROUP_COLORS[0], GROUP_COLORS[1]]);
  });

  it("group, ungroup, group again: no colour repeats until all 16 have been used (SPEC §4)", () => {
    const { state, select } = setup();
    state().load({ nodes: texts(1), edges: [] });
    const seen: string[] = [];
    for (let round = 0; round < 17; round++) {
      select(["n0"]);
      state().groupSelection();
      const group = state().nodes.find((node) => node.type === "group") as CanvasNode;
      seen.push(String(group.data.color));
      select([group.id]);
      state().ungroupSelection();
    }
    expect(seen.slice(0, 16)).toEqual([...GROUP_COLORS]);
    expect(seen[16]).toBe(GROUP_COLORS[0]);
  });

  it("a workflow opened with groups starts its round after their colours", () => {
    const { state, select } = setup();
    state().load({ nodes: texts(1), edges: [] });
    select(["n0"]);
    state().groupSelection();
    // Opened again (a new round): its group's colour counts as given, even once ungrouped.
    state().load({ nodes: state().nodes, edges: [] });
    const opened = state().nodes.find((node) => node.type === "group") as CanvasNode;
    select([opened.id]);
    state().ungroupSelection();
    select(["n0"]);
    state().groupSelection();
    expect(groupColors(state().nodes)).toEqual([GROUP_COLORS[1]]);
  });
});
