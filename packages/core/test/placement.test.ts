import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Box,
  findFreeSpot,
  type GraphNode,
  nodeBoxes,
  nodeSize,
  PLACEMENT_GAP,
} from "../src/index.ts";

const SIZE = { width: 320, height: 240 };

/** True when `a` and `b` overlap or come closer than `gap` (touching at `gap` is fine). */
const tooClose = (a: Box, b: Box, gap: number) =>
  a.x < b.x + b.width + gap &&
  b.x < a.x + a.width + gap &&
  a.y < b.y + b.height + gap &&
  b.y < a.y + a.height + gap;

const placed = (at: { x: number; y: number }, size = SIZE): Box => ({ ...at, ...size });

/** The nearest free spot by brute force over a fine grid (a reference for small cases). */
function bruteNearest(
  at: { x: number; y: number },
  size: { width: number; height: number },
  boxes: Box[],
  gap: number,
): number {
  let best = Number.POSITIVE_INFINITY;
  for (let dx = -1500; dx <= 1500; dx += 10)
    for (let dy = -1500; dy <= 1500; dy += 10) {
      const spot = { x: at.x + dx, y: at.y + dy, ...size };
      if (!boxes.some((box) => tooClose(spot, box, gap))) best = Math.min(best, Math.hypot(dx, dy));
    }
  return best;
}

describe("findFreeSpot", () => {
  it("gives the asked point on an empty canvas", () => {
    expect(findFreeSpot({ x: 123.5, y: -40 }, SIZE, [])).toEqual({ x: 123.5, y: -40 });
  });

  it("gives the asked point when nothing is near it", () => {
    const boxes = [{ x: 2000, y: 2000, width: 320, height: 240 }];
    expect(findFreeSpot({ x: 0, y: 0 }, SIZE, boxes)).toEqual({ x: 0, y: 0 });
  });

  it("moves off an occupied point to the nearest free spot, a gap clear of the node", () => {
    const boxes = [{ x: 0, y: 0, width: 320, height: 240 }];
    // Stepping right (140 px) beats stepping down (160), up (360) or left (540).
    const spot = findFreeSpot({ x: 200, y: 100 }, SIZE, boxes);
    expect(spot).toEqual({ x: 320 + PLACEMENT_GAP, y: 100 });
    expect(tooClose(placed(spot), boxes[0] as Box, PLACEMENT_GAP)).toBe(false);
    // Up and down are both 260 px away: a tie goes down; left and right: right.
    expect(findFreeSpot({ x: 40, y: 0 }, SIZE, boxes)).toEqual({ x: 40, y: 260 });
    const tall = [{ x: 0, y: 0, width: 320, height: 1000 }];
    expect(findFreeSpot({ x: 0, y: 300 }, SIZE, tall)).toEqual({ x: 340, y: 300 });
    // Asked just below the node's top: stepping up is the short way.
    expect(findFreeSpot({ x: 0, y: -200 }, SIZE, boxes)).toEqual({ x: 0, y: -260 });
    // Asked left of the node, the new box reaching over it: it steps left.
    expect(findFreeSpot({ x: -100, y: 0 }, SIZE, boxes)).toEqual({ x: -340, y: 0 });
  });

  it("takes a gap between nodes when the new node fits in it", () => {
    const boxes = [
      { x: 0, y: 0, width: 300, height: 200 },
      { x: 700, y: 0, width: 300, height: 200 },
    ];
    // 400 px between them: a 320-wide node fits only with 20-px gaps on both sides.
    const spot = findFreeSpot({ x: 250, y: 0 }, SIZE, boxes);
    expect(spot).toEqual({ x: 320, y: 0 });
  });

  it("keeps clear of every node in a crowded area", () => {
    // A 20 × 20 block of cards 420 × 360 apart: no card fits between them.
    const boxes: Box[] = [];
    for (let row = 0; row < 20; row++)
      for (let column = 0; column < 20; column++)
        boxes.push({ x: column * 420, y: row * 360, width: 320, height: 250 + (column % 3) * 20 });
    for (const at of [
      { x: 4000, y: 3500 },
      { x: 10, y: 10 },
      { x: 8300, y: 7000 },
      { x: 2111, y: 3333 },
    ]) {
      const spot = findFreeSpot(at, SIZE, boxes);
      for (const box of boxes) expect(tooClose(placed(spot), box, PLACEMENT_GAP)).toBe(false);
    }
    // From the middle of the block the nearest way out is down, under the last row, a little
    // to the left where the new card spans only one 250-tall card: 19 × 360 + 250 + 20.
    expect(findFreeSpot({ x: 4000, y: 3500 }, SIZE, boxes)).toEqual({ x: 3860, y: 7110 });
  });

  it("finds the nearest free spot (checked against a brute-force search)", () => {
    const box = fc.record({
      x: fc.integer({ min: -60, max: 60 }).map((value) => value * 10),
      y: fc.integer({ min: -60, max: 60 }).map((value) => value * 10),
      width: fc.integer({ min: 5, max: 40 }).map((value) => value * 10),
      height: fc.integer({ min: 5, max: 40 }).map((value) => value * 10),
    });
    fc.assert(
      fc.property(
        fc.array(box, { maxLength: 12 }),
        fc.integer({ min: -40, max: 40 }),
        fc.integer({ min: -40, max: 40 }),
        (boxes, ax, ay) => {
          const at = { x: ax * 10, y: ay * 10 };
          const spot = findFreeSpot(at, SIZE, boxes);
          for (const other of boxes)
            expect(tooClose(placed(spot), other, PLACEMENT_GAP)).toBe(false);
          const distance = Math.hypot(spot.x - at.x, spot.y - at.y);
          // Every coordinate is a multiple of 10, so the grid search sees the true optimum.
          expect(distance).toBeCloseTo(bruteNearest(at, SIZE, boxes, PLACEMENT_GAP), 6);
        },
      ),
      { numRuns: 60, seed: 27 },
    );
  });

  it("is deterministic: the same answer whatever the order of the boxes", () => {
    const boxes: Box[] = [
      { x: 0, y: 0, width: 320, height: 240 },
      { x: 400, y: 0, width: 320, height: 240 },
      { x: 0, y: 300, width: 320, height: 240 },
      { x: 400, y: 300, width: 320, height: 240 },
    ];
    const at = { x: 200, y: 150 };
    const first = findFreeSpot(at, SIZE, boxes);
    expect(findFreeSpot(at, SIZE, [...boxes].reverse())).toEqual(first);
    expect(findFreeSpot(at, SIZE, [boxes[2], boxes[0], boxes[3], boxes[1]] as Box[])).toEqual(
      first,
    );
    expect(findFreeSpot(at, SIZE, boxes)).toEqual(first);
  });

  it("places on a 10,000-node graph in a few milliseconds", () => {
    const boxes: Box[] = [];
    for (let index = 0; index < 10_000; index++)
      boxes.push({
        x: (index % 100) * 420,
        y: Math.floor(index / 100) * 360,
        width: 320,
        height: 240 + (index % 6) * 13,
      });
    const asks = [
      { x: 21_000, y: 18_000 }, // the middle of the block: the way out is far
      { x: 50_000, y: 50_000 }, // open canvas
      { x: 100, y: 100 },
    ];
    const spots = asks.map((at) => findFreeSpot(at, SIZE, boxes)); // warm-up
    const started = Date.now();
    for (let round = 0; round < 5; round++) for (const at of asks) findFreeSpot(at, SIZE, boxes);
    const perPlacement = (Date.now() - started) / 15;
    for (const spot of spots)
      for (const box of boxes) expect(tooClose(placed(spot), box, PLACEMENT_GAP)).toBe(false);
    expect(perPlacement).toBeLessThan(25);
  });
});

describe("nodeBoxes", () => {
  it("gives absolute boxes: a child's position is relative to its group", () => {
    const nodes: GraphNode[] = [
      { id: "g", type: "group", position: { x: 100, y: 50 }, data: {}, width: 600, height: 400 },
      {
        id: "c",
        type: "text",
        position: { x: 20, y: 40 },
        data: {},
        parentId: "g",
        measured: { width: 300, height: 200 },
      },
      { id: "n", type: "text", position: { x: -500, y: 0 }, data: {} },
    ];
    expect(nodeBoxes(nodes, nodeSize)).toEqual([
      { x: 100, y: 50, width: 600, height: 400 },
      { x: 120, y: 90, width: 300, height: 200 },
      { x: -500, y: 0, width: 320, height: 240 },
    ]);
    expect(nodeBoxes(nodes, () => ({ width: 1, height: 2 }))[1]).toEqual({
      x: 120,
      y: 90,
      width: 1,
      height: 2,
    });
  });
});
