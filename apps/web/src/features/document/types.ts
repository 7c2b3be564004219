import type { NodeStatus, PortType } from "@atelier/core";
import type { Edge, Node } from "@xyflow/react";

/** What a node holds: its label, typed values (parameters) and run state (SPEC §3). */
export type CanvasNodeData = {
  label?: string;
  inputValues?: Record<string, { value: unknown }>;
  outputs?: Record<string, unknown>;
  outputValues?: Record<string, { value: unknown }>;
  status?: NodeStatus;
  error?: string | null;
  color?: string;
  [key: string]: unknown;
};

export type CanvasNode = Node<CanvasNodeData>;
export type CanvasEdge = Edge<{ dataType?: PortType }>;

export interface DocumentGraph {
  nodes: CanvasNode[];
  edges: CanvasEdge[];
}
