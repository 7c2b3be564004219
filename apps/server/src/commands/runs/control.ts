import { RUN_ENGINE_MESSAGES } from "@atelier/core";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { AppDb } from "../../db/client.ts";
import type { JobRow, RunRow } from "../../db/rows.ts";
import { jobs, runNodes, runs, userQueues } from "../../db/schema.ts";
import { ConflictError } from "../../domain/errors.ts";
import { announceRunChange } from "../../realtime/events.ts";
import { ACTIVE_RUN_STATUSES, activeRuns } from "./run-rows.ts";

export interface ControlDeps {
  db: AppDb;
  /** Cancels a step's job (and at its provider, best effort). */
  cancelJob(job: JobRow): Promise<unknown>;
}

/**
 * Cancels a run: steps not started are cancelled, running steps' jobs are cancelled (their
 * steps end cancelled as the jobs do), and the run ends cancelled. A finished run is left
 * as it was.
 */
export async function cancelRun(deps: ControlDeps, run: RunRow): Promise<void> {
  const { db } = deps;
  if (!(ACTIVE_RUN_STATUSES as readonly string[]).includes(run.status)) return;
  const now = new Date();
  const running = await db
    .select({ jobId: runNodes.jobId })
    .from(runNodes)
    .where(and(eq(runNodes.runId, run.id), eq(runNodes.status, "running")));
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as AppDb;
    await tx
      .update(runNodes)
      .set({ status: "cancelled", error: RUN_ENGINE_MESSAGES.cancelled, completedAt: now })
      .where(and(eq(runNodes.runId, run.id), inArray(runNodes.status, ["queued", "running"])));
    await tx
      .update(runs)
      .set({ status: "cancelled", completedAt: now, updatedAt: now })
      .where(eq(runs.id, run.id));
    await announceRunChange(tx, { runId: run.id, userId: run.userId, status: "cancelled" });
  });
  const jobIds = running.map((row) => row.jobId).filter((id): id is string => Boolean(id));
  if (jobIds.length === 0) return;
  const rows = await db.select().from(jobs).where(inArray(jobs.id, jobIds));
  await Promise.all(rows.map((job) => deps.cancelJob(job)));
}

/** Cancels every active run of the user (the queue panel's "Cancel all"). */
export async function cancelAllRuns(deps: ControlDeps, userId: string): Promise<number> {
  const active = await activeRuns(deps.db, userId);
  for (const run of active) await cancelRun(deps, run);
  return active.length;
}

/**
 * Runs a failed or cancelled run again: its failed, cancelled and not-run steps (or only
 * `nodeIds` and the steps after them) go back to the queue for a new attempt; completed
 * and skipped steps keep their results. The run keeps its place in the queue.
 */
export async function retryRun(db: AppDb, run: RunRow, nodeIds?: readonly string[]) {
  if (!["failed", "cancelled"].includes(run.status))
    throw new ConflictError(RUN_ENGINE_MESSAGES.notRetryable);
  const nodes = await db.select().from(runNodes).where(eq(runNodes.runId, run.id));
  const wanted = new Set(
    nodeIds ??
      nodes
        .filter((node) => ["failed", "cancelled", "not_run"].includes(node.status))
        .map((node) => node.nodeId),
  );
  // The steps after a retried one wait for it again.
  for (const node of nodes)
    if (node.feeders.some((id) => wanted.has(id)) && node.status !== "completed")
      wanted.add(node.nodeId);
  const again = nodes.filter(
    (node) => wanted.has(node.nodeId) && ["failed", "cancelled", "not_run"].includes(node.status),
  );
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as AppDb;
    for (const node of again)
      await tx
        .update(runNodes)
        .set({
          status: "queued",
          attempt: sql`${runNodes.attempt} + 1`,
          jobId: null,
          error: null,
          note: null,
          startedAt: null,
          completedAt: null,
        })
        .where(and(eq(runNodes.runId, run.id), eq(runNodes.nodeId, node.nodeId)));
    await tx
      .update(runs)
      .set({ status: "queued", completedAt: null, updatedAt: new Date() })
      .where(eq(runs.id, run.id));
    await announceRunChange(tx, { runId: run.id, userId: run.userId, status: "queued" });
  });
  return again.length;
}

/** Moves an active run one place up or down the user's queue (swaps with its neighbour). */
export async function moveRun(db: AppDb, run: RunRow, direction: "up" | "down") {
  const queue = await db
    .select({ id: runs.id, queueOrder: runs.queueOrder })
    .from(runs)
    .where(and(eq(runs.userId, run.userId), inArray(runs.status, [...ACTIVE_RUN_STATUSES])))
    .orderBy(asc(runs.queueOrder));
  const at = queue.findIndex((entry) => entry.id === run.id);
  if (at < 0) throw new ConflictError(RUN_ENGINE_MESSAGES.notMovable);
  const other = queue[direction === "up" ? at - 1 : at + 1];
  if (!other) return;
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as AppDb;
    await tx.update(runs).set({ queueOrder: other.queueOrder }).where(eq(runs.id, run.id));
    await tx
      .update(runs)
      .set({ queueOrder: queue[at]?.queueOrder ?? 0 })
      .where(eq(runs.id, other.id));
    await announceRunChange(tx, { runId: run.id, userId: run.userId, status: run.status });
  });
}

/** Pauses or resumes the user's queue: paused, queued steps wait (running ones finish). */
export async function setQueuePaused(db: AppDb, userId: string, paused: boolean) {
  await db
    .insert(userQueues)
    .values({ userId, paused, updatedAt: new Date() })
    .onConflictDoUpdate({ target: userQueues.userId, set: { paused, updatedAt: new Date() } });
  if (!paused)
    await db
      .update(runs)
      .set({ status: "queued", updatedAt: new Date() })
      .where(and(eq(runs.userId, userId), eq(runs.status, "paused")));
}
