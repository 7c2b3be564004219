import type { RunRequest, SavedEdge, SavedNode } from "@atelier/core";
import { RUN_ENGINE_MESSAGES } from "@atelier/core";
import type { AppDb } from "../../db/client.ts";
import type { WorkflowRecord } from "../../db/rows.ts";
import { InvalidInputError } from "../../domain/errors.ts";
import { conflictError, parseBasedOn } from "../workflow-storage/full-save.ts";
import { readWorkflowData } from "../workflow-storage/stored-form.ts";

export interface RunGraph {
  workflowId: string | null;
  basedOn: string | null;
  nodes: SavedNode[];
  edges: SavedEdge[];
}

/**
 * The graph a run request runs. A cloud workflow's is its stored graph with the editor's
 * unsaved changes on top, when the editor's copy is based on the current version (else 409,
 * as a save); a device-only or anonymous one is the request's own `graph`.
 */
export async function graphForRun(
  db: AppDb,
  userId: string,
  request: RunRequest,
  workflow: WorkflowRecord | null,
): Promise<RunGraph> {
  const changes = request.graph;
  if (!workflow) {
    if (!changes) throw new InvalidInputError(RUN_ENGINE_MESSAGES.graphRequired);
    return { workflowId: null, basedOn: null, nodes: changes.nodes, edges: changes.edges ?? [] };
  }
  if (
    request.basedOn !== undefined &&
    parseBasedOn(request.basedOn).getTime() !== workflow.updatedAt.getTime()
  )
    throw await conflictError(db, userId, workflow.id);
  const stored = await readWorkflowData(db, workflow);
  const removed = new Set(changes?.removed ?? []);
  const replaced = new Map((changes?.nodes ?? []).map((node) => [node.id, node]));
  const nodes: SavedNode[] = [];
  for (const node of stored?.nodes ?? []) {
    if (removed.has(node.id)) continue;
    nodes.push(replaced.get(node.id) ?? node);
    replaced.delete(node.id);
  }
  nodes.push(...replaced.values());
  return {
    workflowId: workflow.id,
    basedOn: workflow.updatedAt.toISOString(),
    nodes,
    edges: changes?.edges ?? stored?.edges ?? [],
  };
}
