import { LIMITS } from "../limits.ts";
import type { GraphEdge, GraphNode } from "./types.ts";

/** Resets a copy's run state: processing becomes idle, errors are dropped (SPEC §4). */
function resetRunState(data: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...data };
  if (copy.status === "processing") copy.status = "idle";
  delete copy.error;
  if (Array.isArray(copy.ports)) {
    copy.ports = copy.ports.map((port: Record<string, unknown>) => {
      const { error: _error, ...rest } = port;
      return rest.status === "processing" ? { ...rest, status: "idle" } : rest;
    });
  }
  return copy;
}

let copyCounter = 0;
/** A fresh id for a copy when the caller does not bring its own id factory. */
function defaultCopyId(original: string): string {
  copyCounter += 1;
  return `${original}-copy-${Date.now().toString(36)}-${copyCounter}`;
}

/**
 * Copies nodes at +50/+50 with fresh ids, run state reset; edges between copied nodes and
 * parent links inside the copied set are carried over. Copies come selected.
 */
export function duplicateNodes<N extends GraphNode, E extends GraphEdge>(
  nodes: readonly N[],
  edges: readonly E[],
  newId: (original: string) => string = defaultCopyId,
): { nodes: N[]; edges: E[]; idMap: Map<string, string> } {
  const offset = LIMITS.layout.duplicateOffset;
  const idMap = new Map(nodes.map((node) => [node.id, newId(node.id)]));
  const copies = nodes.map((node) => {
    const parentCopied = node.parentId ? idMap.get(node.parentId) : undefined;
    const copy: N = {
      ...node,
      id: idMap.get(node.id) as string,
      // A child keeps its relative place when its parent is copied too.
      position: parentCopied
        ? { ...node.position }
        : { x: node.position.x + offset, y: node.position.y + offset },
      data: resetRunState(node.data),
      selected: true,
    };
    if (node.parentId) copy.parentId = parentCopied ?? node.parentId;
    return copy;
  });
  const copiedEdges = edges
    .filter((edge) => idMap.has(edge.source) && idMap.has(edge.target))
    .map((edge) => ({
      ...edge,
      id: newId(edge.id),
      source: idMap.get(edge.source) as string,
      target: idMap.get(edge.target) as string,
      selected: false,
    }));
  return { nodes: copies, edges: copiedEdges, idMap };
}
