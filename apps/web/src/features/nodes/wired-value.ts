import { getNodeDefinition, type PortType, sourceValues } from "@atelier/core";
import type { CanvasEdge, CanvasNode, DocumentGraph } from "../document/types.ts";

/*
 * What a wire brings into a node's port, for the node's own field of that name. Lookups are
 * built once per edges (or nodes) array and shared by every node: a drag, which changes
 * positions only, keeps the edges array, so a node with nothing wired costs one map read.
 */

const intoCache = new WeakMap<readonly CanvasEdge[], Map<string, CanvasEdge[]>>();
const byIdCache = new WeakMap<readonly CanvasNode[], Map<string, CanvasNode>>();

function into(edges: readonly CanvasEdge[]) {
  let map = intoCache.get(edges);
  if (!map) {
    map = new Map();
    for (const edge of edges) map.set(edge.target, [...(map.get(edge.target) ?? []), edge]);
    intoCache.set(edges, map);
  }
  return map;
}

function byId(nodes: readonly CanvasNode[]) {
  let map = byIdCache.get(nodes);
  if (!map) {
    map = new Map(nodes.map((node) => [node.id, node]));
    byIdCache.set(nodes, map);
  }
  return map;
}

export interface WiredValue {
  /** The source node's name ("Text 1", else its type's name). */
  from: string;
  /** The first value it sends now (text, or a media URL); "" before it has one. */
  value: string;
}

/** Text preview length: enough to recognise a prompt, small to compare. */
const PREVIEW = 280;

/**
 * The wire into `port` of node `id` as one string (cheap to compare in a selector): "" when
 * nothing is wired there, else JSON of a {@link WiredValue}.
 */
export function wiredKey(
  graph: DocumentGraph,
  id: string,
  port: string,
  type: PortType,
  firstPort: string | undefined,
): string {
  const edge = into(graph.edges)
    .get(id)
    ?.find((candidate) => (candidate.targetHandle ?? firstPort) === port);
  if (!edge) return "";
  const source = byId(graph.nodes).get(edge.source);
  if (!source) return "";
  const from =
    source.data.label ?? getNodeDefinition(source.type ?? "")?.displayName ?? "another node";
  const value = sourceValues(source, edge.sourceHandle ?? null, type)[0] ?? "";
  return JSON.stringify({ from, value: value.slice(0, PREVIEW) } satisfies WiredValue);
}
