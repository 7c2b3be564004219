import { type ArrangeResult, nodeSize, type Positions } from "@atelier/core";
import { Graph, layout } from "@dagrejs/dagre";
import type { CanvasEdge, CanvasNode } from "../document/types.ts";

/*
 * "Tidy up": the selected nodes laid out left to right along their wires by dagre (a kept
 * layout library, loaded only when asked for). A selected group moves as one block with what
 * it holds; nodes inside a group that is not selected stay where they are.
 */

export const TIDY_MESSAGES = {
  needsTwo: "Tidy up needs 2 or more selected nodes",
} as const;

const GAP = { nodes: 40, ranks: 80 };

export function tidyUp(
  selected: readonly CanvasNode[],
  edges: readonly CanvasEdge[],
): ArrangeResult {
  const ids = new Set(selected.map((node) => node.id));
  // Blocks: the selected nodes whose parent is not selected (a group carries its children).
  const blocks = selected.filter((node) => !node.parentId);
  if (blocks.length < 2) return { ok: false, message: TIDY_MESSAGES.needsTwo };
  const blockOf = new Map<string, string>();
  for (const node of blocks) blockOf.set(node.id, node.id);
  for (const node of selected)
    if (node.parentId && ids.has(node.parentId) && blockOf.has(node.parentId))
      blockOf.set(node.id, node.parentId);

  const graph = new Graph();
  graph.setGraph({ rankdir: "LR", nodesep: GAP.nodes, ranksep: GAP.ranks });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of blocks) graph.setNode(node.id, nodeSize(node));
  for (const edge of edges) {
    const from = blockOf.get(edge.source);
    const to = blockOf.get(edge.target);
    if (from && to && from !== to) graph.setEdge(from, to);
  }
  layout(graph);

  // Where the blocks were: the tidied layout starts at the same top-left corner.
  const left = Math.min(...blocks.map((node) => node.position.x));
  const top = Math.min(...blocks.map((node) => node.position.y));
  const placed = blocks.map((node) => {
    const { x, y, width, height } = graph.node(node.id);
    return { id: node.id, x: x - width / 2, y: y - height / 2 };
  });
  const dx = left - Math.min(...placed.map((block) => block.x));
  const dy = top - Math.min(...placed.map((block) => block.y));
  const positions: Positions = new Map();
  for (const block of placed)
    positions.set(block.id, { x: Math.round(block.x + dx), y: Math.round(block.y + dy) });
  return { ok: true, positions };
}
