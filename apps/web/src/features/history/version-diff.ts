import type { SavedWorkflow } from "@atelier/core";

/** Nodes of `version` that differ from `current`: changed, or not there at all. */
export function changedNodeIds(version: SavedWorkflow, current: SavedWorkflow | null): string[] {
  if (!current) return [];
  const now = new Map(current.nodes.map((node) => [node.id, JSON.stringify(node)]));
  return version.nodes
    .filter((node) => now.get(node.id) !== JSON.stringify(node))
    .map((node) => node.id);
}

const nodes = (count: number, what: string) =>
  count === 0 ? "" : `${count} ${count === 1 ? "node" : "nodes"} ${what}`;

/** A version's summary in words: "2 nodes added · 1 node changed", or that none changed. */
export function describeSummary(summary: { added: number; removed: number; changed: number }) {
  const parts = [
    nodes(summary.added, "added"),
    nodes(summary.removed, "removed"),
    nodes(summary.changed, "changed"),
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(" · ") : "No node changed";
}
