import { getNodeDefinition, type PortType } from "@atelier/core";
import type { CanvasEdge, CanvasNode, DocumentGraph } from "./types.ts";

let counter = 0;
/** Short unique ids: time-based prefix plus a counter, readable in saved files. */
export function newId(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter.toString(36)}`;
}

/** A node of a catalogue type at a position, its parameters at their defaults. */
export function createNode(type: string, position: { x: number; y: number }): CanvasNode {
  const definition = getNodeDefinition(type);
  if (!definition) throw new Error(`Unknown node type: ${type}`);
  const defaults = definition.params.parse({}) as Record<string, unknown>;
  return {
    id: newId(type),
    type,
    position,
    data: {
      label: definition.displayName,
      status: "idle",
      inputValues: Object.fromEntries(
        Object.entries(defaults).map(([key, value]) => [key, { value }]),
      ),
    },
  };
}

/** The colour of each port data type (UX.md), for handles and edges. */
export const PORT_COLORS: Record<PortType, string> = {
  text: "#f59e0b",
  image: "#3b82f6",
  video: "#8b5cf6",
  audio: "#22c55e",
  number: "#06b6d4",
  boolean: "#ec4899",
  array: "#64748b",
  object: "#f97316",
  any: "#9ca3af",
};

/** An edge carrying its data type, coloured by its source. */
export function createEdge(
  connection: {
    source: string;
    target: string;
    sourceHandle?: string | null;
    targetHandle?: string | null;
  },
  dataType: PortType,
): CanvasEdge {
  return {
    id: newId("edge"),
    source: connection.source,
    target: connection.target,
    sourceHandle: connection.sourceHandle ?? null,
    targetHandle: connection.targetHandle ?? null,
    data: { dataType },
    style: { stroke: PORT_COLORS[dataType], strokeWidth: 2 },
  };
}

/** Nodes with the given ones moved; the others keep their identity. */
export function moveTo(
  nodes: CanvasNode[],
  positions: Map<string, { x: number; y: number }>,
): CanvasNode[] {
  return nodes.map((node) => {
    const position = positions.get(node.id);
    return position ? { ...node, position } : node;
  });
}

/** The graph without the nodes `ids` (and what the groups among them hold) and their wires. */
export function removeNodes(current: DocumentGraph, ids: Set<string>): DocumentGraph {
  // Deleting a group deletes what it holds.
  let grew = true;
  while (grew) {
    grew = false;
    for (const node of current.nodes) {
      if (node.parentId && ids.has(node.parentId) && !ids.has(node.id)) {
        ids.add(node.id);
        grew = true;
      }
    }
  }
  return {
    nodes: current.nodes.filter((node) => !ids.has(node.id)),
    edges: current.edges.filter((edge) => !ids.has(edge.source) && !ids.has(edge.target)),
  };
}

/** The nodes with exactly `ids` selected; unchanged nodes keep their identity. */
export const selectOnly = (nodes: CanvasNode[], ids: Set<string>) =>
  nodes.map((node) => {
    const want = ids.has(node.id);
    return Boolean(node.selected) === want ? node : { ...node, selected: want };
  });
