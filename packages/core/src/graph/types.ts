/** The minimal graph shapes the pure graph functions work on (React Flow's nodes fit them). */

export interface GraphNode {
  id: string;
  type?: string | undefined;
  position: { x: number; y: number };
  data: Record<string, unknown>;
  width?: number | null;
  height?: number | null;
  measured?: { width?: number; height?: number };
  parentId?: string | null;
  extent?: unknown;
  selected?: boolean;
  style?: unknown;
  [key: string]: unknown;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
  [key: string]: unknown;
}

export interface Graph<N extends GraphNode = GraphNode, E extends GraphEdge = GraphEdge> {
  nodes: readonly N[];
  edges: readonly E[];
}

/** A size used when a node has not been measured yet. */
export const DEFAULT_NODE_SIZE = { width: 320, height: 240 } as const;

export function nodeSize(node: GraphNode): { width: number; height: number } {
  return {
    width: node.measured?.width ?? node.width ?? DEFAULT_NODE_SIZE.width,
    height: node.measured?.height ?? node.height ?? DEFAULT_NODE_SIZE.height,
  };
}
