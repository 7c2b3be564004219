import { randomUUID } from "node:crypto";
import { planRun, type RunPlan, type RunRequest } from "@atelier/core";
import type { AppDb } from "../../db/client.ts";
import type { RunRow, WorkflowRecord } from "../../db/rows.ts";
import { runNodes, runs } from "../../db/schema.ts";
import { InvalidInputError } from "../../domain/errors.ts";
import { announceRunChange } from "../../realtime/events.ts";
import { graphForRun } from "./graph-source.ts";

/**
 * Starts a run: its graph is resolved and checked by core (`planRun`: a bad request is a
 * 400 and nothing is written), then the run and one row per step are written in one
 * transaction, at the end of the user's queue. The run driver takes it from there. A run of
 * a published app names it (`app`); its graph is the app's, so no stored workflow changes.
 */
export async function createRun(
  db: AppDb,
  userId: string,
  request: RunRequest,
  workflow: WorkflowRecord | null,
  app?: { id: string; version: number },
  /** Checks the plan before anything is written (a budget may refuse it). */
  beforeWrite?: (plan: RunPlan) => Promise<void>,
  /** An anonymous session's address: its steps' jobs are budgeted by it too. */
  clientAddress: string | null = null,
): Promise<RunRow> {
  const graph = await graphForRun(db, userId, request, workflow);
  const target = request.target ?? { all: true as const };
  const inputs = request.inputs ?? {};
  const planned = planRun(graph, target, inputs);
  if (!planned.ok) throw new InvalidInputError(planned.message);
  const { plan } = planned;
  await beforeWrite?.(plan);
  const id = randomUUID();
  const labels = new Map(plan.nodes.map((node) => [node.id, node.data.label ?? null]));
  const run = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as AppDb;
    const [row] = await tx
      .insert(runs)
      .values({
        id,
        userId,
        workflowId: graph.workflowId,
        basedOn: graph.basedOn,
        status: "queued",
        target,
        inputs,
        graph: { nodes: plan.nodes, edges: plan.edges },
        queueOrder: Date.now(),
        appId: app?.id ?? null,
        appVersion: app?.version ?? null,
        clientAddress,
      })
      .returning();
    await tx.insert(runNodes).values(
      plan.steps.map((step, position) => ({
        runId: id,
        nodeId: step.id,
        position,
        type: step.type,
        label: typeof labels.get(step.id) === "string" ? (labels.get(step.id) as string) : null,
        feeders: step.feeders,
        status: "queued" as const,
      })),
    );
    await announceRunChange(tx, { runId: id, userId, status: "queued" });
    return row as RunRow;
  });
  return run;
}
