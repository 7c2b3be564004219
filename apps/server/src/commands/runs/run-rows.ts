import { RUN_ENGINE_MESSAGES } from "@atelier/core";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { AppDb } from "../../db/client.ts";
import type { RunNodeRow, RunRow } from "../../db/rows.ts";
import { jobs, runNodes, runs, userQueues } from "../../db/schema.ts";
import { NotFoundError } from "../../domain/errors.ts";

/** Runs that still have work: queued, running, or held by a paused queue. */
export const ACTIVE_RUN_STATUSES = ["queued", "running", "paused"] as const;

/** One of the user's runs; another user's is 404 "Run not found". */
export async function getOwnRun(db: AppDb, userId: string, runId: string): Promise<RunRow> {
  const [run] = await db
    .select()
    .from(runs)
    .where(and(eq(runs.id, runId), eq(runs.userId, userId)));
  if (!run) throw new NotFoundError(RUN_ENGINE_MESSAGES.notFound);
  return run;
}

/** The nodes of the given runs, in each run's dependency order. */
export function nodesOfRuns(db: AppDb, runIds: readonly string[]): Promise<RunNodeRow[]> {
  if (runIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(runNodes)
    .where(inArray(runNodes.runId, [...runIds]))
    .orderBy(asc(runNodes.runId), asc(runNodes.position));
}

/** The user's active runs in queue order. */
export function activeRuns(db: AppDb, userId: string): Promise<RunRow[]> {
  return db
    .select()
    .from(runs)
    .where(and(eq(runs.userId, userId), inArray(runs.status, [...ACTIVE_RUN_STATUSES])))
    .orderBy(asc(runs.queueOrder));
}

/** Whether the user paused their queue. */
export async function isQueuePaused(db: AppDb, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ paused: userQueues.paused })
    .from(userQueues)
    .where(eq(userQueues.userId, userId));
  return row?.paused ?? false;
}

/** Progress of the jobs of running nodes, by job id. */
export async function jobProgress(
  db: AppDb,
  jobIds: readonly string[],
): Promise<Map<string, number | null>> {
  if (jobIds.length === 0) return new Map();
  const rows = await db
    .select({ id: jobs.id, progress: jobs.progress })
    .from(jobs)
    .where(inArray(jobs.id, [...jobIds]));
  return new Map(rows.map((row) => [row.id, row.progress]));
}

/** The recorded cost of each job (null: no published price). */
export async function jobCosts(
  db: AppDb,
  jobIds: readonly string[],
): Promise<Map<string, number | null>> {
  if (jobIds.length === 0) return new Map();
  const rows = await db
    .select({ id: jobs.id, cost: jobs.costUsd })
    .from(jobs)
    .where(inArray(jobs.id, [...jobIds]));
  return new Map(rows.map((row) => [row.id, row.cost]));
}
