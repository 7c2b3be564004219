import { type Connection, getNodeDefinition, validateConnection } from "@atelier/core";
import type { CanvasNode, DocumentGraph } from "../document/types.ts";

/*
 * What "Connect…" offers for one node: every wire core's `validateConnection` would accept
 * between one of its ports and a port of another node — its outputs into their inputs and
 * their outputs into its inputs. The nearest nodes come first; only the nearest
 * `NEAREST_NODES` are looked at, which keeps a 10,000-node graph's list instant.
 */

export const NEAREST_NODES = 300;

export interface ConnectOption {
  connection: Connection;
  /** Unique per wire (labels may repeat: two nodes can share a name). */
  key: string;
  /** "Text 1 · Text → FLUX1.1 [pro] · Prompt", as read out and searched. */
  label: string;
}

const nameOf = (node: CanvasNode) =>
  node.data.label ?? getNodeDefinition(node.type ?? "")?.displayName ?? node.id;

export function connectOptions(document: DocumentGraph, nodeId: string): ConnectOption[] {
  const self = document.nodes.find((node) => node.id === nodeId);
  const own = self ? getNodeDefinition(self.type ?? "") : undefined;
  if (!self || !own) return [];
  const { x, y } = self.position;
  const others = document.nodes
    .filter((node) => node.id !== nodeId && node.type !== "group")
    .map((node) => ({ node, distance: (node.position.x - x) ** 2 + (node.position.y - y) ** 2 }))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, NEAREST_NODES)
    .map(({ node }) => node);
  const graph = {
    nodes: document.nodes.map((node) => ({ id: node.id, type: node.type ?? "", data: node.data })),
    edges: document.edges,
  };
  const options: ConnectOption[] = [];
  const offer = (connection: Connection, label: string) => {
    if (!validateConnection(graph, connection).ok) return;
    const { source, sourceHandle, target, targetHandle } = connection;
    options.push({ connection, label, key: `${source}:${sourceHandle}>${target}:${targetHandle}` });
  };
  // Nodes that share a name are numbered in the graph's order: "Text 1", "Text 2".
  const sameName = new Map<string, string[]>();
  for (const node of document.nodes) {
    const name = nameOf(node);
    const ids = sameName.get(name);
    if (ids) ids.push(node.id);
    else sameName.set(name, [node.id]);
  }
  const labelOf = (node: CanvasNode) => {
    const name = nameOf(node);
    const ids = sameName.get(name) ?? [];
    return ids.length < 2 ? name : `${name} ${ids.indexOf(node.id) + 1}`;
  };
  const selfName = labelOf(self);
  for (const other of others) {
    const definition = getNodeDefinition(other.type ?? "");
    if (!definition) continue;
    const otherName = labelOf(other);
    for (const output of own.outputs)
      for (const input of definition.inputs)
        offer(
          { source: nodeId, sourceHandle: output.id, target: other.id, targetHandle: input.id },
          `${selfName} · ${output.label} → ${otherName} · ${input.label}`,
        );
    for (const output of definition.outputs)
      for (const input of own.inputs)
        offer(
          { source: other.id, sourceHandle: output.id, target: nodeId, targetHandle: input.id },
          `${otherName} · ${output.label} → ${selfName} · ${input.label}`,
        );
  }
  return options;
}
