import { type ItemText, LIMITS, type SavedNode } from "@atelier/core";
import { and, desc, eq, sql } from "drizzle-orm";
import type { AppDb } from "../../db/client.ts";
import { runNodes, runs, workflows } from "../../db/schema.ts";
import { replaceChunks } from "./chunk-rows.ts";
import {
  byteLength,
  encodeWorkflow,
  partsOf,
  readWorkflowData,
  storedColumns,
} from "./stored-form.ts";

/** What one completed run step produced, as it goes into its node. */
export interface NodeResult {
  nodeId: string;
  /** The step's job: the history entry's `requestId`. */
  requestId: string;
  outputs: Record<string, unknown>;
  outputValues: Record<string, unknown>;
  signature: string | null;
  completedAt: Date;
}

interface HistoryEntry {
  requestId?: string;
  at?: number;
  outputs?: unknown;
  outputValues?: unknown;
}

/**
 * A node with a run's result merged in (pure): the result joins the node's history (once,
 * by its request id; the 20 latest kept, SPEC §9), and becomes the node's outputs when it
 * is newer than every result the node already shows.
 */
export function withResult<N extends { data: Record<string, unknown> }>(
  node: N,
  result: NodeResult,
): N {
  const history = (Array.isArray(node.data.history) ? node.data.history : []) as HistoryEntry[];
  if (history.some((entry) => entry.requestId === result.requestId)) return node;
  const at = result.completedAt.getTime();
  const entry = {
    requestId: result.requestId,
    at,
    outputs: result.outputs,
    outputValues: result.outputValues,
  };
  const merged = [...history, entry]
    .sort((a, b) => (a.at ?? 0) - (b.at ?? 0))
    .slice(-LIMITS.text.historyEntries);
  const newest = history.every((other) => (other.at ?? 0) <= at);
  return {
    ...node,
    data: {
      ...node.data,
      history: merged,
      ...(newest
        ? {
            status: "complete",
            outputs: result.outputs,
            outputValues: result.outputValues,
            runSignature: result.signature ?? undefined,
            error: null,
          }
        : {}),
    },
  };
}

/**
 * Writes a run step's result into the stored node of the user's workflow, without moving
 * `updated_at` (the version saves are based on: a result is not an edit, so the editor's
 * next save must not conflict with it); `results_version` moves instead. Only the chunk
 * holding the node is rewritten. False when the workflow or the node is gone.
 */
export async function storeRunResult(
  db: AppDb,
  userId: string,
  workflowId: string,
  result: NodeResult,
): Promise<boolean> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as AppDb;
    const [row] = await tx
      .select()
      .from(workflows)
      .where(and(eq(workflows.id, workflowId), eq(workflows.userId, userId)))
      .for("update");
    if (!row) return false;
    const data = await readWorkflowData(tx, row);
    const at = data?.nodes.findIndex((node) => node.id === result.nodeId) ?? -1;
    if (!data || at < 0) return false;
    const node = data.nodes[at] as SavedNode;
    const merged = withResult(node, result);
    if (merged === node) return true;
    data.nodes[at] = merged;
    const stored = encodeWorkflow(partsOf(data, workflowId));
    await tx
      .update(workflows)
      .set({ ...storedColumns(stored), resultsVersion: sql`${workflows.resultsVersion} + 1` })
      .where(eq(workflows.id, workflowId));
    await replaceChunks(tx, workflowId, stored.bodies);
    return true;
  });
}

/**
 * A save's nodes with the run results the saving editor may not have seen merged in: for each
 * node, its latest completed run step whose request id its text does not name. A save never
 * takes back a result a run wrote (the per-node merge of ADR 0010).
 */
export async function withRunResults(
  db: AppDb,
  workflowId: string,
  nodes: readonly ItemText[],
): Promise<ItemText[]> {
  const latest = await db
    .selectDistinctOn([runNodes.nodeId], {
      nodeId: runNodes.nodeId,
      requestId: runNodes.jobId,
      outputs: runNodes.outputs,
      outputValues: runNodes.outputValues,
      signature: runNodes.signature,
      completedAt: runNodes.completedAt,
    })
    .from(runNodes)
    .innerJoin(runs, eq(runs.id, runNodes.runId))
    .where(and(eq(runs.workflowId, workflowId), eq(runNodes.status, "completed")))
    .orderBy(runNodes.nodeId, desc(runNodes.completedAt));
  if (latest.length === 0) return [...nodes];
  const byNode = new Map(latest.map((result) => [result.nodeId, result]));
  return nodes.map((item) => {
    const result = byNode.get(item.id);
    if (!result?.requestId || !result.completedAt || item.text.includes(result.requestId))
      return item;
    const merged = withResult(JSON.parse(item.text) as SavedNode, {
      nodeId: item.id,
      requestId: result.requestId,
      outputs: result.outputs ?? {},
      outputValues: result.outputValues ?? {},
      signature: result.signature,
      completedAt: result.completedAt,
    });
    const text = JSON.stringify(merged);
    return { id: item.id, text, bytes: byteLength(text) };
  });
}
