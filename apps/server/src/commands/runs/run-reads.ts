import { and, desc, eq, lt, or, type SQL } from "drizzle-orm";
import type { AppDb } from "../../db/client.ts";
import type { RunNodeRow, RunRow } from "../../db/rows.ts";
import { runs } from "../../db/schema.ts";
import { InvalidInputError } from "../../domain/errors.ts";
import { activeRuns, isQueuePaused, jobCosts, jobProgress, nodesOfRuns } from "./run-rows.ts";

/** A run with its steps, the progress of their running jobs and the cost of finished ones. */
export interface RunRead {
  run: RunRow;
  nodes: RunNodeRow[];
  progress: Map<string, number | null>;
  costs: Map<string, number | null>;
}

/** The runs with their steps and progress, in the order given. */
export async function withNodes(db: AppDb, list: readonly RunRow[]): Promise<RunRead[]> {
  const nodes = await nodesOfRuns(
    db,
    list.map((run) => run.id),
  );
  const running = nodes.filter((node) => node.status === "running" && node.jobId);
  const progress = await jobProgress(
    db,
    running.map((node) => node.jobId as string),
  );
  const completed = nodes.filter((node) => node.status === "completed" && node.jobId);
  const costs = await jobCosts(
    db,
    completed.map((node) => node.jobId as string),
  );
  return list.map((run) => ({
    run,
    nodes: nodes.filter((node) => node.runId === run.id),
    progress,
    costs,
  }));
}

export async function readRun(db: AppDb, run: RunRow): Promise<RunRead> {
  return (await withNodes(db, [run]))[0] as RunRead;
}

/** The user's queue: paused or not, and its active runs in order. */
export async function readQueue(db: AppDb, userId: string) {
  const [paused, list] = await Promise.all([isQueuePaused(db, userId), activeRuns(db, userId)]);
  return { paused, runs: await withNodes(db, list) };
}

const cursorOf = (run: RunRow) => `${run.createdAt.toISOString()}|${run.id}`;

/** A page of a workflow's runs, newest first; `cursor` is the previous page's last run. */
export async function listWorkflowRuns(
  db: AppDb,
  userId: string,
  workflowId: string,
  limit: number,
  cursor?: string,
) {
  let after: SQL | undefined;
  if (cursor) {
    const [at, id] = cursor.split("|");
    const date = new Date(at ?? "");
    if (!id || Number.isNaN(date.getTime())) throw new InvalidInputError("Invalid cursor");
    after = or(lt(runs.createdAt, date), and(eq(runs.createdAt, date), lt(runs.id, id)));
  }
  const rows = await db
    .select()
    .from(runs)
    .where(and(eq(runs.userId, userId), eq(runs.workflowId, workflowId), after))
    .orderBy(desc(runs.createdAt), desc(runs.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    runs: await withNodes(db, page),
    nextCursor: rows.length > limit && last ? cursorOf(last) : null,
  };
}
