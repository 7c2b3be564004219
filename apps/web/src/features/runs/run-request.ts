import { type RunRequest, type SavedWorkflow, serializeWorkflow } from "@atelier/core";
import type { CanvasEdge, CanvasNode } from "../document/types.ts";
import { baseFor, snapshotOf } from "../persistence/delta-save.ts";

export interface RunWorkspace {
  workflowId: string | null;
  location: "local" | "cloud" | null;
  basedOn: string | null;
}

/** The nodes and edges that differ from what the server holds at `basedOn`, when known. */
function unsavedChanges(data: SavedWorkflow, workflowId: string, basedOn: string) {
  const base = baseFor(workflowId, basedOn);
  if (!base) return { nodes: data.nodes, edges: data.edges };
  const next = snapshotOf(data);
  return {
    nodes: data.nodes.filter((node) => base.nodes.get(node.id) !== next.nodes.get(node.id)),
    removed: base.order.filter((id) => !next.nodes.has(id)),
    ...(next.edges !== base.edges ? { edges: data.edges } : {}),
  };
}

/**
 * The body of POST /api/runs for "Run all" (`target` null) or "Run to here": a cloud
 * workflow by id and version with the editor's unsaved changes (all its nodes when the
 * saved version is not known here), any other one as its nodes and wires.
 */
export function runRequest(
  nodes: readonly CanvasNode[],
  edges: readonly CanvasEdge[],
  workspace: RunWorkspace,
  target: string | null,
): RunRequest {
  const data = serializeWorkflow(nodes, edges);
  const runTarget = target ? { upTo: target } : { all: true as const };
  const { workflowId, location, basedOn } = workspace;
  if (location === "cloud" && workflowId && basedOn)
    return {
      workflowId,
      basedOn,
      graph: unsavedChanges(data, workflowId, basedOn),
      target: runTarget,
    };
  return { graph: { nodes: data.nodes, edges: data.edges }, target: runTarget };
}
