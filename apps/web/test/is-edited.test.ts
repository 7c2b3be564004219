import { describe, expect, it } from "vitest";
import { isEdited } from "../src/features/document/history.ts";
import type { CanvasNode } from "../src/features/document/types.ts";

describe("isEdited", () => {
  const nodes: CanvasNode[] = Array.from({ length: 25 }, (_, index) => ({
    id: `n${index}`,
    type: "text",
    position: { x: index * 10, y: 0 },
    data: {},
  }));
  const graph = { nodes, edges: [] };

  it("tells edits from view changes, also for edits of more than 20 nodes", () => {
    expect(isEdited(graph, graph)).toBe(false);
    const selected = { nodes: nodes.map((node) => ({ ...node, selected: true })), edges: [] };
    expect(isEdited(graph, selected)).toBe(false);
    const movedAll = {
      nodes: nodes.map((node) => ({ ...node, position: { x: node.position.x, y: 50 } })),
      edges: [],
    };
    expect(isEdited(graph, movedAll)).toBe(true);
    expect(isEdited(graph, { nodes: nodes.slice(1), edges: [] })).toBe(true);
    const renamed = {
      nodes: nodes.map((node, index) => (index === 0 ? { ...node, data: { label: "A" } } : node)),
      edges: [],
    };
    expect(isEdited(graph, renamed)).toBe(true);
  });

  it("sees reordered nodes as no edit, and a wire added, removed or rewired as one", () => {
    const reversed = { nodes: [...nodes].reverse(), edges: [] };
    expect(isEdited(graph, reversed)).toBe(false);
    const swapped = { nodes: [nodes[1], nodes[0], ...nodes.slice(2)] as CanvasNode[], edges: [] };
    const replaced = { ...swapped, nodes: [...swapped.nodes.slice(1), { ...nodes[0], id: "new" }] };
    expect(isEdited(graph, replaced as typeof graph)).toBe(true);
    const edge = { id: "e", source: "n0", target: "n1" };
    const wired = { nodes, edges: [edge] };
    expect(isEdited(graph, wired)).toBe(true);
    expect(isEdited(wired, graph)).toBe(true);
    expect(isEdited(wired, { nodes, edges: [{ ...edge, selected: true }] })).toBe(false);
    expect(isEdited(wired, { nodes, edges: [{ ...edge, target: "n2" }] })).toBe(true);
  });
});
