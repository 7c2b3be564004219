import {
  DELTA_SAVE_LIMITS,
  type SavedEdge,
  type SavedNode,
  type SavedWorkflow,
  type WorkflowRow,
} from "@atelier/core";
import { ApiError } from "../../services/api.ts";

/**
 * Delta saves: the editor remembers what the server holds of the workflow it last saved
 * (each node's JSON text, in order, and the edges), and when it saves on top of exactly
 * that version sends only the nodes that changed. Anything unusual goes as a full save.
 */

/** One saved version of a workflow as texts: what a later save is compared with. */
export interface SavedSnapshot {
  order: string[];
  nodes: Map<string, string>;
  edges: string;
}

export interface DeltaBody {
  nodes: SavedNode[];
  removed: string[];
  edges?: SavedEdge[];
}

/** The version this tab last saved; one workflow at a time. */
let remembered: { id: string; updatedAt: string; snapshot: SavedSnapshot } | null = null;

export function snapshotOf(data: SavedWorkflow): SavedSnapshot {
  return {
    order: data.nodes.map((node) => node.id),
    nodes: new Map(data.nodes.map((node) => [node.id, JSON.stringify(node)])),
    edges: JSON.stringify(data.edges),
  };
}

/** Remembers what the server holds at `updatedAt` after a successful save. */
export function rememberSaved(id: string, updatedAt: string, snapshot: SavedSnapshot): void {
  remembered = { id, updatedAt, snapshot };
}

export function forgetSaved(): void {
  remembered = null;
}

/** The snapshot the server holds, if it is the version `basedOn` of workflow `id`. */
export function baseFor(id: string, basedOn: string): SavedSnapshot | null {
  return remembered?.id === id && remembered.updatedAt === basedOn ? remembered.snapshot : null;
}

/**
 * What changed from `base` to `next`, or null when a delta cannot say it: nodes reordered,
 * new nodes anywhere but at the end, repeated ids, or a delta over half the document (or
 * over the route's limits), where a full save is as cheap and simpler.
 */
export function diffSnapshots(
  base: SavedSnapshot,
  next: SavedSnapshot,
  data: SavedWorkflow,
  documentBytes: number,
): DeltaBody | null {
  if (next.nodes.size !== next.order.length) return null;
  const removed = base.order.filter((id) => !next.nodes.has(id));
  const gone = new Set(removed);
  const kept = base.order.filter((id) => !gone.has(id));
  // The server keeps stored order and adds new nodes after the last one.
  for (const [at, id] of next.order.entries()) {
    const expected = kept[at];
    if (at < kept.length ? id !== expected : base.nodes.has(id)) return null;
  }
  const nodes: SavedNode[] = [];
  let size = 0;
  for (const [at, node] of data.nodes.entries()) {
    const text = next.nodes.get(node.id) as string;
    if (base.nodes.get(node.id) === text) continue;
    nodes.push(data.nodes[at] as SavedNode);
    size += text.length;
  }
  const edgesChanged = next.edges !== base.edges;
  if (edgesChanged) size += next.edges.length;
  if (
    size > documentBytes / 2 ||
    size > DELTA_SAVE_LIMITS.bodyBytes / 2 ||
    nodes.length > DELTA_SAVE_LIMITS.nodes ||
    removed.length > DELTA_SAVE_LIMITS.removed ||
    (edgesChanged && data.edges.length > DELTA_SAVE_LIMITS.edges)
  )
    return null;
  return { nodes, removed, ...(edgesChanged ? { edges: data.edges } : {}) };
}

/** PATCH /api/workflows/:id with the delta on top of `basedOn`. */
export async function sendDelta(
  id: string,
  name: string,
  data: SavedWorkflow,
  basedOn: string,
  delta: DeltaBody,
): Promise<WorkflowRow> {
  const { nodes: _nodes, edges: _edges, ...head } = data;
  const response = await fetch(`/api/workflows/${encodeURIComponent(id)}`, {
    method: "PATCH",
    credentials: "include",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, basedOn, data: head, ...delta }),
  }).catch(() => {
    throw new ApiError(0, "Network error");
  });
  const text = await response.text();
  const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (!response.ok)
    throw new ApiError(response.status, String(parsed.error ?? response.statusText), parsed);
  return parsed.workflow as WorkflowRow;
}

/** Errors a full save would meet as well; anything else is worth a full save. */
export const isFinalForDelta = (error: unknown) =>
  error instanceof ApiError && [401, 403, 404, 409, 413].includes(error.status);
