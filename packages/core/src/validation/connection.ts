import { getNodeDefinition } from "../catalogue/registry.ts";
import type { InputPortDefinition, OutputPortDefinition } from "../catalogue/types.ts";
import { hasOutputContent } from "../graph/content.ts";
import { canConnectTypes } from "../ports/index.ts";

export interface ConnectionGraphNode {
  id: string;
  type: string;
  data?: Record<string, unknown>;
}

export interface ConnectionGraphEdge {
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
}

export interface ConnectionGraph {
  nodes: readonly ConnectionGraphNode[];
  edges: readonly ConnectionGraphEdge[];
}

export interface Connection {
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
}

/** `message: null` is a silent refusal: nothing is shown to the user. */
export type ConnectionVerdict = { ok: true } | { ok: false; message: string | null };

export const CONNECTION_MESSAGES = {
  invalidNode: "Invalid source or target node",
  invalidPort: "Invalid source or target port",
  inputInUse: "This input already has a connection. Please remove the existing connection first.",
  typeMismatch: (source: string, target: string) =>
    `Type mismatch: Cannot connect ${source} to ${target}`,
  tooMany: (max: number, type: string) =>
    `This node can only accept up to ${max} ${type} connections...`,
} as const;

/**
 * A node can produce content when it runs something and every required input is fed: by a
 * connection, or by a value typed into the node (e.g. its prompt).
 */
/** Types with nothing to run whose outputs still come (ADR 0002). */
const DERIVED_OUTPUTS = new Set(["character-reference", "scene-composer"]);

function canProduceContent(
  graph: ConnectionGraph,
  node: ConnectionGraphNode,
  inputs: readonly InputPortDefinition[],
  runKind: string,
): boolean {
  // Nothing to run, unless its outputs come from what is wired in (a character reference) or
  // from the browser (a scene composer's Capture): those can be wired onwards before.
  if (runKind === "none" && !DERIVED_OUTPUTS.has(node.type)) return false;
  const typed = (node.data?.inputValues ?? {}) as Record<string, { value?: unknown } | undefined>;
  return inputs
    .filter((port) => port.required)
    .every(
      (port) =>
        graph.edges.some((edge) => edge.target === node.id && edge.targetHandle === port.id) ||
        hasOutputContent({ outputValues: typed }, port.id, "any"),
    );
}

/** Output types whose connections wait for content (SPEC §5). */
const CONTENT_GATED_TYPES = new Set(["text", "image", "video"]);

function pickPort<P extends { id: string }>(
  ports: readonly P[],
  handle: string | null | undefined,
): P | undefined {
  if (handle === null || handle === undefined || handle === "") {
    return ports.length === 1 ? ports[0] : undefined;
  }
  return ports.find((port) => port.id === handle);
}

/**
 * Checks a proposed connection against every rule of SPEC §5, in the order a user meets
 * them: nodes, ports, types, an occupied single input, a per-node cap, and finally the
 * silent refusal of a content source that has nothing to give yet.
 */
export function validateConnection(
  graph: ConnectionGraph,
  connection: Connection,
): ConnectionVerdict {
  const sourceNode = graph.nodes.find((node) => node.id === connection.source);
  const targetNode = graph.nodes.find((node) => node.id === connection.target);
  if (!sourceNode || !targetNode) return { ok: false, message: CONNECTION_MESSAGES.invalidNode };

  const sourceDefinition = getNodeDefinition(sourceNode.type);
  const targetDefinition = getNodeDefinition(targetNode.type);
  const sourcePort: OutputPortDefinition | undefined = sourceDefinition
    ? pickPort(sourceDefinition.outputs, connection.sourceHandle)
    : undefined;
  const targetPort: InputPortDefinition | undefined = targetDefinition
    ? pickPort(targetDefinition.inputs, connection.targetHandle)
    : undefined;
  if (!sourceDefinition || !sourcePort || !targetPort) {
    return { ok: false, message: CONNECTION_MESSAGES.invalidPort };
  }

  // A node feeding itself would be a cycle no run can order; React Flow shows nothing.
  if (sourceNode.id === targetNode.id) return { ok: false, message: null };

  if (!canConnectTypes(sourcePort.type, targetPort.type)) {
    return {
      ok: false,
      message: CONNECTION_MESSAGES.typeMismatch(sourcePort.type, targetPort.type),
    };
  }

  const intoSameInput = graph.edges.filter(
    (edge) =>
      edge.target === targetNode.id &&
      (pickPort(targetDefinition?.inputs ?? [], edge.targetHandle)?.id ?? edge.targetHandle) ===
        targetPort.id,
  );
  if (!targetPort.multiple && intoSameInput.length > 0) {
    return { ok: false, message: CONNECTION_MESSAGES.inputInUse };
  }
  if (targetPort.max !== undefined && intoSameInput.length >= targetPort.max) {
    return { ok: false, message: CONNECTION_MESSAGES.tooMany(targetPort.max, targetPort.type) };
  }
  const duplicate = intoSameInput.some(
    (edge) =>
      edge.source === sourceNode.id &&
      (pickPort(sourceDefinition.outputs, edge.sourceHandle)?.id ?? edge.sourceHandle) ===
        sourcePort.id,
  );
  if (duplicate) return { ok: false, message: null };

  // A source with nothing to give yet is refused without a word: it holds no content and
  // cannot make any when run (see docs/adr/0002-content-gated-connections.md).
  if (
    CONTENT_GATED_TYPES.has(sourcePort.type) &&
    !hasOutputContent(sourceNode.data, sourcePort.id, sourcePort.type) &&
    !canProduceContent(graph, sourceNode, sourceDefinition.inputs, sourceDefinition.run.kind)
  ) {
    return { ok: false, message: null };
  }
  return { ok: true };
}
