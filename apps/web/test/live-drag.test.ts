import type { InternalNode, NodeChange } from "@xyflow/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createLiveDrag,
  LIVE_DRAG_CLASS,
  LIVE_DRAG_LIMIT,
  withLivePositions,
} from "../src/features/canvas/live-drag.ts";
import type { CanvasNode } from "../src/features/document/types.ts";

afterEach(() => {
  document.body.replaceChildren();
});

/** A node as React Flow holds it: at `at` on the canvas, inside `parentId` if given. */
function internal(id: string, at: { x: number; y: number }, parentId?: string) {
  return {
    id,
    position: at,
    data: {},
    ...(parentId ? { parentId } : {}),
    measured: { width: 100, height: 60 },
    internals: { positionAbsolute: at, z: 0, userNode: {} },
  } as unknown as InternalNode<CanvasNode>;
}

/** The canvas with one drawn box per id, and React Flow's state at `zoom`. */
function scene(zoom: number, ids = ["a", "b", "group", "child"]) {
  const root = document.createElement("div");
  for (const id of ids) {
    const box = document.createElement("div");
    box.className = "react-flow__node";
    box.dataset.id = id;
    box.style.transform = "translate(0px,0px)";
    root.append(box);
  }
  document.body.append(root);
  const nodeLookup = new Map([
    ["a", internal("a", { x: 0, y: 0 })],
    ["b", internal("b", { x: 300, y: 0 })],
    ["group", internal("group", { x: 1000, y: 500 })],
    ["child", internal("child", { x: 1020, y: 540 }, "group")],
    ["undrawn", internal("undrawn", { x: 5000, y: 0 })],
  ]);
  const parentLookup = new Map([["group", new Map([["child", nodeLookup.get("child")]])]]);
  const flow = {
    transform: [0, 0, zoom] as [number, number, number],
    nodeLookup,
    parentLookup,
  } as unknown as Parameters<ReturnType<typeof createLiveDrag>["take"]>[1];
  const box = (id: string) => root.querySelector<HTMLElement>(`[data-id="${id}"]`);
  return { root, flow, box };
}

const move = (id: string, x: number, y: number, dragging = true): NodeChange<CanvasNode> => ({
  type: "position",
  id,
  position: { x, y },
  dragging,
});

/** A drag of `ids` whose first move the document has taken (as Canvas.tsx hands it over). */
function begun(ids: string[]) {
  const live = createLiveDrag();
  const first = ids.map((id) => move(id, 1, 1));
  const { root, flow } = scene(0.2);
  expect(live.take(first, flow, root)).toBe(false);
  live.applied(first);
  return live;
}

describe("a zoomed-out drag, ahead of the document", () => {
  it("after its first move, moves the dragged boxes and keeps their positions, off the document", () => {
    const live = begun(["a", "b"]);
    const { root, flow, box } = scene(0.2);
    const listener = vi.fn();
    live.subscribe(listener);

    expect(live.take([move("a", 40, 20), move("b", 340, 20)], flow, root)).toBe(true);
    expect(box("a")?.style.transform).toBe("translate(40px,20px)");
    expect(box("b")?.style.transform).toBe("translate(340px,20px)");
    expect([...live.positions]).toEqual([
      ["a", { x: 40, y: 20 }],
      ["b", { x: 340, y: 20 }],
    ]);
    expect(root.classList.contains(LIVE_DRAG_CLASS)).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("places a group member from the group's place (its position is relative)", () => {
    const live = begun(["child"]);
    const { root, flow, box } = scene(0.2);
    expect(live.take([move("child", 30, 50)], flow, root)).toBe(true);
    expect(box("child")?.style.transform).toBe("translate(1030px,550px)");
    expect(live.positions.get("child")).toEqual({ x: 1030, y: 550 });
  });

  it("leaves to the document: zoomed in, the drop, groups, boxes not drawn, other changes", () => {
    const live = begun(["a", "group", "undrawn"]);
    const out = scene(0.2);
    expect(live.take([move("a", 40, 20)], scene(0.5).flow, out.root)).toBe(false);
    expect(live.take([move("a", 40, 20, false)], out.flow, out.root)).toBe(false);
    expect(live.take([move("group", 0, 0)], out.flow, out.root)).toBe(false);
    expect(live.take([move("undrawn", 0, 0)], out.flow, out.root)).toBe(false);
    expect(
      live.take([move("a", 1, 1), { type: "select", id: "b", selected: true }], out.flow, out.root),
    ).toBe(false);
    const many = Array.from({ length: LIVE_DRAG_LIMIT + 1 }, () => move("a", 1, 1));
    expect(live.take(many, out.flow, out.root)).toBe(false);
    // Nothing was moved or kept by any of them.
    expect(live.positions.size).toBe(0);
    expect(out.box("a")?.style.transform).toBe("translate(0px,0px)");
    expect(out.root.classList.contains(LIVE_DRAG_CLASS)).toBe(false);
  });

  it("forgets a box's live position once the document has its place, and unmarks the canvas", () => {
    const live = begun(["a", "b"]);
    const { root, flow } = scene(0.2);
    live.take([move("a", 40, 20), move("b", 340, 20)], flow, root);
    const listener = vi.fn();
    live.subscribe(listener);

    live.applied([move("a", 40, 20, false)]);
    expect([...live.positions.keys()]).toEqual(["b"]);
    expect(root.classList.contains(LIVE_DRAG_CLASS)).toBe(true);
    live.applied([{ type: "remove", id: "b" }]);
    expect(live.positions.size).toBe(0);
    expect(root.classList.contains(LIVE_DRAG_CLASS)).toBe(false);
    expect(listener).toHaveBeenCalledTimes(2);
    live.applied([move("a", 0, 0, false)]);
    expect(listener).toHaveBeenCalledTimes(2);
    // The next drag begins through the document again.
    expect(live.take([move("a", 60, 20)], flow, root)).toBe(false);
  });

  it("ends a drag under way when zoomed back in: its next move begins through the document", () => {
    const live = begun(["a"]);
    const { root, flow } = scene(0.2);
    live.take([move("a", 40, 20)], flow, root);
    live.end();
    expect(live.positions.size).toBe(0);
    expect(root.classList.contains(LIVE_DRAG_CLASS)).toBe(false);
    expect(live.take([move("a", 60, 20)], flow, root)).toBe(false);
  });

  it("answers React Flow's nodes with the dragged ones where the drag has them", () => {
    const { flow } = scene(0.2);
    const lookup = withLivePositions(flow.nodeLookup, new Map([["a", { x: 7, y: 9 }]]));
    expect(lookup.get("a")?.internals.positionAbsolute).toEqual({ x: 7, y: 9 });
    expect(lookup.get("a")?.measured).toEqual({ width: 100, height: 60 });
    expect(lookup.get("b")).toBe(flow.nodeLookup.get("b"));
    expect(lookup.get("missing")).toBeUndefined();
    expect(withLivePositions(flow.nodeLookup, new Map())).toBe(flow.nodeLookup);
  });
});
