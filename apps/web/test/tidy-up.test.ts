import { describe, expect, it } from "vitest";
import { TIDY_MESSAGES, tidyUp } from "../src/features/canvas/tidy-up.ts";
import type { CanvasEdge, CanvasNode } from "../src/features/document/types.ts";

const node = (id: string, x: number, y: number, extra: Partial<CanvasNode> = {}): CanvasNode => ({
  id,
  type: "text",
  position: { x, y },
  data: {},
  measured: { width: 200, height: 100 },
  ...extra,
});
const edge = (source: string, target: string): CanvasEdge => ({
  id: `${source}-${target}`,
  source,
  target,
});

const overlap = (a: { x: number; y: number }, b: { x: number; y: number }, w = 200, h = 100) =>
  a.x < b.x + w && b.x < a.x + w && a.y < b.y + h && b.y < a.y + h;

describe("Tidy up (dagre, left to right)", () => {
  it("puts a chain in wire order from left to right, starting where the selection was", () => {
    const nodes = [node("c", 0, 0), node("a", 500, 300), node("b", 40, 20)];
    const result = tidyUp(nodes, [edge("a", "b"), edge("b", "c")]);
    if (!result.ok) throw new Error(result.message);
    const at = (id: string) => result.positions.get(id) as { x: number; y: number };
    const [a, b, c] = [at("a"), at("b"), at("c")];
    expect(a.x).toBeLessThan(b.x);
    expect(b.x).toBeLessThan(c.x);
    expect(b.x - a.x).toBeGreaterThanOrEqual(200 + 80);
    expect(Math.min(a.x, b.x, c.x)).toBe(0);
    expect(Math.min(a.y, b.y, c.y)).toBe(0);
  });

  it("keeps siblings apart and never overlaps nodes", () => {
    const nodes = [node("src", 0, 0), node("x", 0, 0), node("y", 0, 0), node("z", 0, 0)];
    const result = tidyUp(nodes, [edge("src", "x"), edge("src", "y"), edge("src", "z")]);
    if (!result.ok) throw new Error(result.message);
    const placed = [...result.positions.values()];
    for (const [i, a] of placed.entries())
      for (const b of placed.slice(i + 1)) expect(overlap(a, b)).toBe(false);
  });

  it("moves a selected group as one block with its children, and leaves others' children", () => {
    const group = node("g", 300, 300, { type: "group", measured: { width: 500, height: 300 } });
    const child = node("child", 20, 40, { parentId: "g" });
    const outside = node("o", 0, 0);
    const result = tidyUp([group, child, outside], [edge("o", "child")]);
    if (!result.ok) throw new Error(result.message);
    expect([...result.positions.keys()].sort()).toEqual(["g", "o"]);
    // The wire into the child orders its group after the source.
    expect((result.positions.get("o") as { x: number }).x).toBeLessThan(
      (result.positions.get("g") as { x: number }).x,
    );
  });

  it("needs two blocks", () => {
    expect(tidyUp([node("a", 0, 0)], [])).toEqual({ ok: false, message: TIDY_MESSAGES.needsTwo });
  });
});
