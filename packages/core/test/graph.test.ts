import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  alignNodes,
  distributeNodes,
  duplicateNodes,
  findCycle,
  GROUP_COLORS,
  type GraphEdge,
  type GraphNode,
  groupNodes,
  nextGroupColor,
  pickGroupColor,
  topologicalOrder,
  ungroupNodes,
  upstreamOf,
} from "../src/index.ts";

const box = (
  id: string,
  x: number,
  y: number,
  width = 100,
  height = 50,
  extra: Partial<GraphNode> = {},
): GraphNode => ({
  id,
  type: "flux-pro",
  position: { x, y },
  data: {},
  width,
  height,
  ...extra,
});

describe("duplicateNodes", () => {
  it("offsets copies by +50/+50 with new ids, resets processing to idle and drops errors", () => {
    const nodes = [
      box("a", 0, 0, 100, 50, {
        data: {
          status: "processing",
          label: "A",
          ports: [{ id: "image", type: "image", status: "processing", error: "x" }],
        },
      }),
      box("b", 200, 10, 100, 50, { data: { status: "complete", error: "old failure" } }),
    ];
    const edges: GraphEdge[] = [
      { id: "e1", source: "a", target: "b" },
      { id: "e2", source: "b", target: "outside" },
    ];
    const result = duplicateNodes(nodes, edges, (id) => `${id}-copy`);
    expect(result.nodes.map((node) => [node.id, node.position])).toEqual([
      ["a-copy", { x: 50, y: 50 }],
      ["b-copy", { x: 250, y: 60 }],
    ]);
    expect(result.nodes[0]?.data).toEqual({
      status: "idle",
      label: "A",
      ports: [{ id: "image", type: "image", status: "idle" }],
    });
    expect(result.nodes[1]?.data).toEqual({ status: "complete" });
    expect(result.edges).toEqual([
      { id: "e1-copy", source: "a-copy", target: "b-copy", selected: false },
    ]);
    expect(nodes[0]?.data.status).toBe("processing");
  });

  it("keeps an error status but drops the error text, and makes ids on its own", () => {
    const failed = box("f", 0, 0, 100, 50, {
      data: { status: "error", error: "Generation failed" },
    });
    const result = duplicateNodes([failed], []);
    expect(result.nodes[0]?.data).toEqual({ status: "error" });
    expect(result.nodes[0]?.id).not.toBe("f");
    expect(duplicateNodes([failed], []).nodes[0]?.id).not.toBe(result.nodes[0]?.id);
  });

  it("keeps children in place relative to a copied parent", () => {
    const nodes = [
      box("g", 0, 0, 400, 300, { type: "group" }),
      box("c", 20, 100, 100, 50, { parentId: "g" }),
    ];
    const result = duplicateNodes(nodes, [], (id) => `${id}2`);
    expect(result.nodes[1]).toMatchObject({
      id: "c2",
      parentId: "g2",
      position: { x: 20, y: 100 },
    });
    expect(result.nodes[0]?.position).toEqual({ x: 50, y: 50 });
  });
});

describe("alignNodes and distributeNodes", () => {
  const three = [box("a", 0, 0, 100, 50), box("b", 300, 100, 200, 80), box("c", 120, 40, 50, 20)];

  it("needs 2 nodes to align and 3 to distribute", () => {
    expect(alignNodes([box("a", 0, 0)], "left")).toEqual({
      ok: false,
      message: "Align needs 2 or more selected nodes",
    });
    expect(distributeNodes(three.slice(0, 2), "horizontal")).toEqual({
      ok: false,
      message: "Distribute needs 3 or more selected nodes",
    });
  });

  it.each([
    ["left", { a: 0, b: 0, c: 0 }, "x"],
    ["right", { a: 400, b: 300, c: 450 }, "x"],
    ["center", { a: 200, b: 150, c: 225 }, "x"],
    ["top", { a: 0, b: 0, c: 0 }, "y"],
    ["bottom", { a: 130, b: 100, c: 160 }, "y"],
    ["middle", { a: 65, b: 50, c: 80 }, "y"],
  ] as const)("aligns %s", (mode, expected, axis) => {
    const result = alignNodes(three, mode);
    if (!result.ok) throw new Error(result.message);
    for (const [id, value] of Object.entries(expected))
      expect(result.positions.get(id)?.[axis]).toBe(value);
    const other = axis === "x" ? "y" : "x";
    for (const node of three)
      expect(result.positions.get(node.id)?.[other]).toBe(node.position[other]);
  });

  it("distributes with equal gaps, keeping the outermost nodes", () => {
    const result = distributeNodes(
      [box("a", 0, 0, 100), box("b", 150, 0, 100), box("c", 500, 0, 100)],
      "horizontal",
    );
    if (!result.ok) throw new Error(result.message);
    expect(result.positions.get("a")?.x).toBe(0);
    expect(result.positions.get("b")?.x).toBe(250);
    expect(result.positions.get("c")?.x).toBe(500);
    const vertical = distributeNodes(
      [box("a", 0, 0, 10, 10), box("b", 0, 900, 10, 30), box("c", 0, 20, 10, 10)],
      "vertical",
    );
    if (!vertical.ok) throw new Error(vertical.message);
    // Sorted by y: a (0..10), c (20..30), b (900..930): span 930, sizes 50, gap 440.
    expect(vertical.positions.get("c")?.y).toBe(450);
    expect(vertical.positions.get("b")?.y).toBe(900);
  });
});

describe("groups", () => {
  it("wraps nodes with padding 20 and a header of 80, children relative to the group", () => {
    const result = groupNodes([box("a", 100, 200, 100, 50), box("b", 300, 260, 120, 60)], {
      id: "g",
      color: GROUP_COLORS[0],
    });
    expect(result?.group).toMatchObject({
      id: "g",
      type: "group",
      position: { x: 80, y: 100 },
      width: 360,
      height: 240,
    });
    expect(result?.group.data).toEqual({ label: "Group", color: GROUP_COLORS[0] });
    expect(result?.children.map((child) => [child.id, child.parentId, child.position])).toEqual([
      ["a", "g", { x: 20, y: 100 }],
      ["b", "g", { x: 220, y: 160 }],
    ]);
  });

  it("picks an id and the first free colour when not given", () => {
    const result = groupNodes([box("a", 0, 0)]);
    expect(result?.group.id).toMatch(/^group-/);
    expect(result?.group.data.color).toBe(GROUP_COLORS[0]);
  });

  it("ignores nodes already in a group, and returns null when none is left", () => {
    const result = groupNodes(
      [
        box("a", 0, 0),
        box("b", 0, 0, 100, 50, { parentId: "other" }),
        box("c", 0, 0, 100, 50, { data: { groupId: "legacy" } }),
      ],
      {
        id: "g",
        color: "#fff",
      },
    );
    expect(result?.children.map((child) => child.id)).toEqual(["a"]);
    expect(
      groupNodes([box("b", 0, 0, 100, 50, { parentId: "other" })], { id: "g", color: "#fff" }),
    ).toBeNull();
  });

  it("ungroups children back to absolute positions", () => {
    const grouped = groupNodes([box("a", 100, 200), box("b", 300, 260)], {
      id: "g",
      color: "#fff",
    });
    if (!grouped) throw new Error("no group");
    const freed = ungroupNodes(grouped.group, [grouped.group, ...grouped.children]);
    expect(freed.map((node) => [node.id, node.position, node.parentId, node.extent])).toEqual([
      ["a", { x: 100, y: 200 }, undefined, undefined],
      ["b", { x: 300, y: 260 }, undefined, undefined],
    ]);
  });

  it("has 16 distinct colours and repeats none until all are used", () => {
    expect(new Set(GROUP_COLORS).size).toBe(16);
    const used: string[] = [];
    for (let index = 0; index < 16; index++) used.push(pickGroupColor(used));
    expect(new Set(used).size).toBe(16);
    const seventeenth = pickGroupColor(used);
    expect(GROUP_COLORS).toContain(seventeenth);
    expect(pickGroupColor([...used, seventeenth])).not.toBe(seventeenth);
  });

  it("group, ungroup, group again picks an unused colour, never one in use while one is free", () => {
    // Each step groups (true) or ungroups the group at `index` of those on the canvas.
    const step = fc.tuple(fc.boolean(), fc.nat());
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const canvas: string[] = [];
        for (const [group, index] of steps) {
          if (!group) {
            if (canvas.length > 0) canvas.splice(index % canvas.length, 1);
            continue;
          }
          const color = pickGroupColor(canvas);
          const uses = (c: string) => canvas.filter((used) => used === c).length;
          // Free colours first; only when all 16 are in use, one used the fewest times.
          expect(uses(color)).toBe(Math.min(...GROUP_COLORS.map(uses)));
          canvas.push(color);
        }
      }),
    );
    const inUse = GROUP_COLORS.filter((color) => color !== GROUP_COLORS[3]);
    expect(pickGroupColor(inUse)).toBe(GROUP_COLORS[3]);
  });
});

describe("group colour rounds (SPEC §4: none repeats until all 16 have been used)", () => {
  it("a colour freed by an ungroup is not handed out again in the same round", () => {
    let given: string[] = [];
    const handed: string[] = [];
    for (let count = 0; count < 16; count++) {
      // Each group is ungrouped before the next: nothing stays in use.
      const next = nextGroupColor(given, []);
      handed.push(next.color);
      given = next.given;
    }
    expect(handed).toEqual([...GROUP_COLORS]);
    // A new round starts from the colours in use.
    const inUse = [GROUP_COLORS[0], GROUP_COLORS[1]];
    expect(nextGroupColor(given, inUse)).toEqual({
      color: GROUP_COLORS[2],
      given: [GROUP_COLORS[0], GROUP_COLORS[1], GROUP_COLORS[2]],
    });
  });

  it("when all 16 are in use, one used the fewest times", () => {
    const inUse = [...GROUP_COLORS, GROUP_COLORS[0]];
    expect(nextGroupColor(GROUP_COLORS, inUse).color).toBe(GROUP_COLORS[1]);
  });
});

describe("topological order", () => {
  it("orders nodes after their inputs", () => {
    const edges = [
      { id: "1", source: "text", target: "image" },
      { id: "2", source: "image", target: "video" },
      { id: "3", source: "text", target: "video" },
    ];
    expect(topologicalOrder(["video", "image", "text"], edges)).toEqual({
      ok: true,
      order: ["text", "image", "video"],
    });
    expect(upstreamOf("video", edges)).toEqual(new Set(["image", "text"]));
  });

  it("reports a cycle", () => {
    const edges = [
      { id: "1", source: "a", target: "b" },
      { id: "2", source: "b", target: "c" },
      { id: "3", source: "c", target: "a" },
    ];
    const result = topologicalOrder(["a", "b", "c", "d"], edges);
    expect(result).toEqual({ ok: false, cycle: ["a", "b", "c", "a"] });
    expect(findCycle(["a", "b"], [{ id: "1", source: "a", target: "b" }])).toBeNull();
  });
});
