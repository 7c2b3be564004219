import { validateConnection } from "@atelier/core";
import { type ConnectionState, useConnection } from "@xyflow/react";
import { useMemo } from "react";
import { useDocumentStore } from "../document/context.tsx";

type Hint = "accepts" | "refuses";
/** While a wire is dragged: each of this node's ports that would take it, and those that would not. */
export type PortHints = {
  inputs: Readonly<Record<string, Hint>>;
  outputs: Readonly<Record<string, Hint>>;
} | null;

/** The wire being dragged, as a key ("node\0handle\0source|target"), or null. */
const draggedWire = (connection: ConnectionState) =>
  connection.inProgress
    ? `${connection.fromNode.id}\u0000${connection.fromHandle.id ?? ""}\u0000${connection.fromHandle.type}`
    : null;

/**
 * Port hints for node `id` from core's `validateConnection` — the rule a drop is judged by,
 * not a second copy of it. Worked out once when a drag starts (the selector's key only
 * changes then), not on every pointer move.
 */
export function usePortHints(
  id: string,
  inputs: readonly { id: string }[],
  outputs: readonly { id: string }[],
): PortHints {
  const documents = useDocumentStore();
  const wire = useConnection(draggedWire);
  return useMemo(() => {
    if (!wire) return null;
    const [fromNode, fromHandle, fromType] = wire.split("\u0000") as [string, string, string];
    const { nodes, edges } = documents.getState();
    const graph = {
      nodes: nodes.map((node) => ({ id: node.id, type: node.type ?? "", data: node.data })),
      edges,
    };
    const hints: Record<string, Hint> = {};
    // From an output, this node's inputs may take it; from an input, its outputs may feed it.
    const ports = fromType === "source" ? inputs : outputs;
    for (const port of ports) {
      const connection =
        fromType === "source"
          ? { source: fromNode, sourceHandle: fromHandle, target: id, targetHandle: port.id }
          : { source: id, sourceHandle: port.id, target: fromNode, targetHandle: fromHandle };
      hints[port.id] = validateConnection(graph, connection).ok ? "accepts" : "refuses";
    }
    return fromType === "source" ? { inputs: hints, outputs: {} } : { inputs: {}, outputs: hints };
  }, [wire, documents, id, inputs, outputs]);
}
