import type { InternalNode } from "@xyflow/react";
import { describe, expect, it } from "vitest";
import { drawWires, visibleArea, wireEnds } from "../src/features/canvas/wire-paths.ts";
import { createEdge, PORT_COLORS } from "../src/features/document/factory.ts";
import type { CanvasEdge, CanvasNode } from "../src/features/document/types.ts";

/** A node as React Flow holds it: where it is, its size, and its measured handles. */
function node(id: string, x: number, y: number, handles = true): InternalNode<CanvasNode> {
  return {
    id,
    position: { x, y },
    data: {},
    measured: { width: 320, height: 120 },
    internals: {
      positionAbsolute: { x, y },
      z: 0,
      userNode: {} as CanvasNode,
      handleBounds: handles
        ? {
            source: [
              {
                id: "image",
                type: "source",
                position: "right",
                x: 310,
                y: 50,
                width: 10,
                height: 20,
              },
            ],
            target: [
              {
                id: "prompt",
                type: "target",
                position: "left",
                x: 0,
                y: 30,
                width: 10,
                height: 20,
              },
            ],
          }
        : undefined,
    },
  } as unknown as InternalNode<CanvasNode>;
}

const wire = (source: string, target: string, type: "image" | "text" = "image"): CanvasEdge => ({
  ...createEdge({ source, target, sourceHandle: "image", targetHandle: "prompt" }, type),
  id: `${source}-${target}`,
});

/** A 2D context that records what is stroked, in which colour. */
function recorder() {
  const strokes: { colour: string; curves: number }[] = [];
  let curves = 0;
  const context = {
    strokeStyle: "",
    beginPath: () => {
      curves = 0;
    },
    moveTo: () => undefined,
    bezierCurveTo: () => {
      curves++;
    },
    stroke() {
      strokes.push({ colour: String(this.strokeStyle), curves });
    },
  };
  return { context: context as unknown as CanvasRenderingContext2D, strokes };
}

describe("zoomed-out wires", () => {
  const lookup = new Map([
    ["a", node("a", 0, 0)],
    ["b", node("b", 1000, 0)],
    ["c", node("c", 5000, 5000, false)],
    ["far", node("far", 90_000, 90_000)],
    ["far2", node("far2", 95_000, 90_000)],
  ]);

  it("starts and ends a wire at the measured handles, else at the middle of the sides", () => {
    expect(wireEnds(wire("a", "b"), lookup)).toEqual({ sx: 320, sy: 60, tx: 1000, ty: 40 });
    expect(wireEnds(wire("b", "c"), lookup)).toEqual({ sx: 1320, sy: 60, tx: 5000, ty: 5060 });
    expect(wireEnds(wire("a", "gone"), lookup)).toBeNull();
  });

  it("draws every wire crossing the view, or with an end's node in it, one stroke per colour", () => {
    const { context, strokes } = recorder();
    const area = visibleArea([0, 0, 0.1], 1280, 800); // 12,800 × 8,000 of the canvas
    const edges = [wire("a", "b"), wire("b", "a", "text"), wire("a", "c"), wire("far", "far2")];
    const drawn = drawWires(context, edges, lookup, area);
    expect(drawn.ids).toEqual(["a-b", "b-a", "a-c"]);
    // The box holding them: b → a loops out left of a's input; a → c reaches c's input.
    const loop = 0.25 * 25 * Math.sqrt(1320 - 0);
    expect(drawn.box).toEqual({ left: -loop, top: 40, right: 5000, bottom: 5060 });
    expect(strokes).toEqual([
      { colour: PORT_COLORS.image, curves: 2 },
      { colour: PORT_COLORS.text, curves: 1 },
    ]);
  });

  it("counts a wire whose end node is in view even when its curve is not", () => {
    // The view shows only the top of node b, above where its wires leave it.
    const { context } = recorder();
    const area = { left: 1100, top: 0, right: 1200, bottom: 30 };
    expect(drawWires(context, [wire("b", "c")], lookup, area).ids).toEqual(["b-c"]);
    expect(drawWires(context, [wire("a", "c")], lookup, area)).toEqual({ ids: [], box: null });
  });

  it("leaves out the wires of nodes being moved (they are drawn on their own canvas)", () => {
    const { context } = recorder();
    const area = visibleArea([0, 0, 0.1], 1280, 800);
    const edges = [wire("a", "b"), wire("b", "c"), wire("a", "c")];
    expect(drawWires(context, edges, lookup, area, new Set(["b"])).ids).toEqual(["a-c"]);
  });
});
