import type { GraphEdge } from "./types.ts";

export type TopologicalResult = { ok: true; order: string[] } | { ok: false; cycle: string[] };

/**
 * Kahn's algorithm over node ids: an order in which every node comes after the nodes that
 * feed it, or one cycle (as a closed path of ids) when none exists.
 */
export function topologicalOrder(
  nodeIds: readonly string[],
  edges: readonly GraphEdge[],
): TopologicalResult {
  const known = new Set(nodeIds);
  const incoming = new Map<string, number>(nodeIds.map((id) => [id, 0]));
  const outgoing = new Map<string, string[]>(nodeIds.map((id) => [id, []]));
  for (const edge of edges) {
    if (!known.has(edge.source) || !known.has(edge.target)) continue;
    outgoing.get(edge.source)?.push(edge.target);
    incoming.set(edge.target, (incoming.get(edge.target) ?? 0) + 1);
  }
  const ready = nodeIds.filter((id) => incoming.get(id) === 0);
  const order: string[] = [];
  while (ready.length > 0) {
    const id = ready.shift() as string;
    order.push(id);
    for (const next of outgoing.get(id) ?? []) {
      const left = (incoming.get(next) ?? 0) - 1;
      incoming.set(next, left);
      if (left === 0) ready.push(next);
    }
  }
  if (order.length === nodeIds.length) return { ok: true, order };
  return { ok: false, cycle: findCycle(nodeIds, edges) ?? [] };
}

/** One cycle as a closed path [a, b, …, a], or null when the graph is acyclic. */
export function findCycle(
  nodeIds: readonly string[],
  edges: readonly GraphEdge[],
): string[] | null {
  const outgoing = new Map<string, string[]>(nodeIds.map((id) => [id, []]));
  for (const edge of edges) outgoing.get(edge.source)?.push(edge.target);
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    state.set(id, "open");
    path.push(id);
    for (const next of outgoing.get(id) ?? []) {
      if (!outgoing.has(next)) continue;
      if (state.get(next) === "open") return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    path.pop();
    state.set(id, "done");
    return null;
  };
  for (const id of nodeIds) {
    if (!state.has(id)) {
      const found = visit(id);
      if (found) return found;
    }
  }
  return null;
}

/** Every node that feeds `nodeId`, directly or not ("Run to here"), without the node itself. */
export function upstreamOf(nodeId: string, edges: readonly GraphEdge[]): Set<string> {
  const incoming = new Map<string, string[]>();
  for (const edge of edges) {
    const list = incoming.get(edge.target) ?? [];
    list.push(edge.source);
    incoming.set(edge.target, list);
  }
  const seen = new Set<string>();
  const stack = [...(incoming.get(nodeId) ?? [])];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id) || id === nodeId) continue;
    seen.add(id);
    stack.push(...(incoming.get(id) ?? []));
  }
  return seen;
}
