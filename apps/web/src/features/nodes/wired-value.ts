import type { CanvasEdge } from "../document/types.ts";

/*
 * The wires into a node, for its fields a port of the same name can feed (a prompt, a seed).
 * The lookup is built once per edges array and shared by every node: a drag, which changes
 * positions only, keeps the edges array, so a node costs one map read. What a wire carries
 * is read by the lazily loaded preview (WiredPreview.tsx), off the editor's first load.
 */

const intoCache = new WeakMap<readonly CanvasEdge[], Map<string, CanvasEdge[]>>();

function into(edges: readonly CanvasEdge[]) {
  let map = intoCache.get(edges);
  if (!map) {
    map = new Map();
    for (const edge of edges) map.set(edge.target, [...(map.get(edge.target) ?? []), edge]);
    intoCache.set(edges, map);
  }
  return map;
}

const FIELD = "\u0001";
const ENTRY = "\u0002";

/** Node `id`'s wires as one string ("port·source·handle" entries), cheap to compare. */
export function wiredInto(all: readonly CanvasEdge[], id: string, firstPort: string | undefined) {
  const edges = into(all).get(id);
  if (!edges) return "";
  return edges
    .map((edge) =>
      [edge.targetHandle ?? firstPort ?? "", edge.source, edge.sourceHandle ?? ""].join(FIELD),
    )
    .join(ENTRY);
}

/** The source node and handle of the first wire into `port`, or null. */
export function wireOf(wires: string, port: string): [string, string] | null {
  if (!wires) return null;
  for (const entry of wires.split(ENTRY)) {
    const [target, source, handle] = entry.split(FIELD) as [string, string, string];
    if (target === port) return [source, handle];
  }
  return null;
}
