import {
  estimateNode,
  type NodeEstimate,
  type RunProviders,
  type TotalEstimate,
  totalOf,
} from "../catalogue/estimate.ts";
import { getNodeDefinition } from "../catalogue/registry.ts";
import { orderFor, PROVIDER_PARAM } from "../catalogue/run-target.ts";
import { type GraphIndex, indexGraph, runSignatureOf } from "./run-inputs.ts";
import type { RunNode } from "./run-node.ts";
import type { GraphEdge } from "./types.ts";

/**
 * What running a node of a graph is expected to cost: its parameters (defaults filled in)
 * and the ports wired into it pick the endpoint, whose published price is the estimate.
 * Null for a node that runs nothing (or an unknown type).
 */
export function estimateGraphNode(
  node: RunNode,
  edges: readonly GraphEdge[],
  providers: RunProviders,
): NodeEstimate | null {
  const definition = node.type ? getNodeDefinition(node.type) : undefined;
  if (!definition || definition.run.kind === "none") return null;
  const raw: Record<string, unknown> = {};
  for (const [name, slot] of Object.entries(node.data.inputValues ?? {})) raw[name] = slot?.value;
  const parsed = definition.params.safeParse(raw);
  const params = parsed.success ? (parsed.data as Record<string, unknown>) : raw;
  const firstPort = definition.inputs[0]?.id;
  const connected = new Set<string>();
  for (const edge of edges)
    if (edge.target === node.id) {
      const port = edge.targetHandle ?? firstPort;
      if (port) connected.add(port);
    }
  const order = orderFor(raw, providers.order);
  const estimate = estimateNode(definition, connected, params, { ...providers, order });
  const chosen = raw[PROVIDER_PARAM];
  return estimate && typeof chosen === "string" && chosen !== ""
    ? { ...estimate, chosen }
    : estimate;
}

/**
 * The total for the nodes `ids` of a graph (a run's steps). A node that completed with the
 * same model, inputs and parameters keeps its result in a run (it is skipped), so it counts
 * for nothing. `estimateOf` gives a node's own estimate (the editor passes the ones it
 * keeps per node); by default estimateGraphNode.
 */
export function estimateGraphRun(
  graph: { nodes: readonly RunNode[]; edges: readonly GraphEdge[] },
  ids: readonly string[],
  providers: RunProviders,
  estimateOf: (node: RunNode, into: readonly GraphEdge[]) => NodeEstimate | null = (node, into) =>
    estimateGraphNode(node, into, providers),
  // One index for every node's signature and wires (linear in the graph's size); a caller
  // totalling a graph in parts passes the one it built.
  index: GraphIndex = indexGraph(graph.nodes, graph.edges),
): TotalEstimate {
  return totalOf(
    ids.map((id) => {
      const node = index.byId.get(id);
      if (!node) return null;
      const unchanged =
        node.data.status === "complete" &&
        node.data.runSignature === runSignatureOf(graph.nodes, graph.edges, id, index);
      return unchanged ? null : estimateOf(node, index.into.get(id) ?? []);
    }),
  );
}
