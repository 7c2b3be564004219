import {
  canConnectTypes,
  getNodeDefinition,
  listNodeDefinitions,
  type NodeDefinition,
  type PortType,
} from "@atelier/core";

/** A wire dropped on empty canvas: from an output (or into an input) of this node. */
export interface PendingWire {
  nodeId: string;
  nodeType: string;
  handleId: string | null;
  /** "source": dragged from an output; "target": dragged from an input. */
  side: "source" | "target";
}

export interface CompatibleChoice {
  definition: NodeDefinition;
  /** The port of the new node to wire to. */
  portId: string;
}

/** Node types that can take (or feed) the wire, each with the first fitting port. */
export function compatibleTypes(wire: PendingWire): CompatibleChoice[] {
  const from = getNodeDefinition(wire.nodeType);
  if (!from) return [];
  const ports = wire.side === "source" ? from.outputs : from.inputs;
  const port =
    ports.find((candidate) => candidate.id === wire.handleId) ??
    (ports.length === 1 ? ports[0] : undefined);
  if (!port) return [];
  const type: PortType = port.type;
  const choices: CompatibleChoice[] = [];
  for (const definition of listNodeDefinitions()) {
    const candidates = wire.side === "source" ? definition.inputs : definition.outputs;
    const match = candidates.find((candidate) =>
      wire.side === "source"
        ? canConnectTypes(type, candidate.type)
        : canConnectTypes(candidate.type, type),
    );
    if (match) choices.push({ definition, portId: match.id });
  }
  return choices;
}
