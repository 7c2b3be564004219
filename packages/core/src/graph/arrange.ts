import { type GraphNode, nodeSize } from "./types.ts";

export const ALIGN_MODES = ["left", "center", "right", "top", "middle", "bottom"] as const;
export type AlignMode = (typeof ALIGN_MODES)[number];
export const DISTRIBUTE_AXES = ["horizontal", "vertical"] as const;
export type DistributeAxis = (typeof DISTRIBUTE_AXES)[number];

export const ARRANGE_MESSAGES = {
  alignNeedsTwo: "Align needs 2 or more selected nodes",
  distributeNeedsThree: "Distribute needs 3 or more selected nodes",
} as const;

export type Positions = Map<string, { x: number; y: number }>;
export type ArrangeResult = { ok: true; positions: Positions } | { ok: false; message: string };

/** New positions that line the nodes up on one edge or centre of their bounding box. */
export function alignNodes(nodes: readonly GraphNode[], mode: AlignMode): ArrangeResult {
  if (nodes.length < 2) return { ok: false, message: ARRANGE_MESSAGES.alignNeedsTwo };
  const boxes = nodes.map((node) => ({ node, ...nodeSize(node) }));
  const left = Math.min(...boxes.map((box) => box.node.position.x));
  const right = Math.max(...boxes.map((box) => box.node.position.x + box.width));
  const top = Math.min(...boxes.map((box) => box.node.position.y));
  const bottom = Math.max(...boxes.map((box) => box.node.position.y + box.height));
  const positions: Positions = new Map();
  for (const { node, width, height } of boxes) {
    let { x, y } = node.position;
    if (mode === "left") x = left;
    if (mode === "right") x = right - width;
    if (mode === "center") x = (left + right) / 2 - width / 2;
    if (mode === "top") y = top;
    if (mode === "bottom") y = bottom - height;
    if (mode === "middle") y = (top + bottom) / 2 - height / 2;
    positions.set(node.id, { x, y });
  }
  return { ok: true, positions };
}

/**
 * Equal gaps between nodes along an axis; the first and last node stay where they are.
 */
export function distributeNodes(nodes: readonly GraphNode[], axis: DistributeAxis): ArrangeResult {
  if (nodes.length < 3) return { ok: false, message: ARRANGE_MESSAGES.distributeNeedsThree };
  const key = axis === "horizontal" ? "x" : "y";
  const sizeKey = axis === "horizontal" ? "width" : "height";
  const sorted = [...nodes].sort((a, b) => a.position[key] - b.position[key]);
  const sizes = sorted.map((node) => nodeSize(node)[sizeKey]);
  const first = sorted[0] as GraphNode;
  const last = sorted[sorted.length - 1] as GraphNode;
  const span = last.position[key] + (sizes[sizes.length - 1] ?? 0) - first.position[key];
  const occupied = sizes.reduce((sum, size) => sum + size, 0);
  const gap = (span - occupied) / (sorted.length - 1);
  const positions: Positions = new Map();
  let cursor = first.position[key];
  sorted.forEach((node, index) => {
    positions.set(node.id, { ...node.position, [key]: cursor });
    cursor += (sizes[index] ?? 0) + gap;
  });
  return { ok: true, positions };
}
