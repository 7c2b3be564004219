import type { AdminJob, InstanceHealth } from "@atelier/core";
import { and, desc, eq, gte, inArray, min, notInArray, sql } from "drizzle-orm";
import type { AppDb } from "../db/client.ts";
import { jobs, runs, user, workers, workflowMediaManifest, workflows } from "../db/schema.ts";

const ACTIVE = ["IN_QUEUE", "IN_PROGRESS"] as const;
/** A worker writes its row every 15 s: one silent for a minute is gone. */
const ALIVE_MS = 60_000;
const HOUR_MS = 3_600_000;
const count = sql<string | number>`count(*)`;

/** Queue depth and age, workers alive, storage used, provider errors of the last hour. */
export async function instanceHealth(db: AppDb, now = new Date()): Promise<InstanceHealth> {
  const byStatus = await db
    .select({ status: jobs.status, n: count, oldest: min(jobs.createdAt) })
    .from(jobs)
    .where(inArray(jobs.status, [...ACTIVE]))
    .groupBy(jobs.status);
  const queued = byStatus.find((row) => row.status === "IN_QUEUE");
  const running = byStatus.find((row) => row.status === "IN_PROGRESS");
  const [activeRuns] = await db
    .select({ n: count })
    .from(runs)
    .where(notInArray(runs.status, ["completed", "failed", "cancelled"]));
  const alive = await db
    .select()
    .from(workers)
    .where(gte(workers.seenAt, new Date(now.getTime() - ALIVE_MS)))
    .orderBy(workers.startedAt);
  const [media] = await db
    .select({ bytes: sql<string | number>`coalesce(sum(${workflowMediaManifest.fileSize}), 0)` })
    .from(workflowMediaManifest);
  const [data] = await db
    .select({ bytes: sql<string | number>`coalesce(sum(${workflows.dataSizeBytes}), 0)` })
    .from(workflows);
  const failed = await db
    .select({ provider: jobs.provider, n: count })
    .from(jobs)
    .where(and(eq(jobs.status, "FAILED"), gte(jobs.completedAt, new Date(now.getTime() - HOUR_MS))))
    .groupBy(jobs.provider)
    .orderBy(desc(count));
  const providerErrors = await Promise.all(
    failed.map(async (row) => {
      const [last] = await db
        .select({ error: jobs.error })
        .from(jobs)
        .where(and(eq(jobs.status, "FAILED"), eq(jobs.provider, row.provider)))
        .orderBy(sql`${jobs.completedAt} desc nulls last`)
        .limit(1);
      return { provider: row.provider, failed: Number(row.n), lastError: last?.error ?? null };
    }),
  );
  const oldest = queued?.oldest ? new Date(queued.oldest) : null;
  return {
    queue: {
      queued: Number(queued?.n ?? 0),
      running: Number(running?.n ?? 0),
      oldestQueuedSeconds: oldest ? Math.max(0, (now.getTime() - oldest.getTime()) / 1000) : null,
      activeRuns: Number(activeRuns?.n ?? 0),
    },
    workers: alive.map((worker) => ({
      host: worker.host,
      pid: worker.pid,
      concurrency: worker.concurrency,
      startedAt: worker.startedAt.toISOString(),
      seenAt: worker.seenAt.toISOString(),
    })),
    storage: { mediaBytes: Number(media?.bytes ?? 0), workflowBytes: Number(data?.bytes ?? 0) },
    providerErrors,
  };
}

/** Jobs across users for admins: every unfinished one, then the latest others (100 in all). */
export async function listAllJobs(db: AppDb): Promise<AdminJob[]> {
  const columns = {
    id: jobs.id,
    email: user.email,
    isAnonymous: user.isAnonymous,
    model: jobs.model,
    provider: jobs.provider,
    status: jobs.status,
    createdAt: jobs.createdAt,
    costUsd: jobs.costUsd,
    error: jobs.error,
  };
  const active = await db
    .select(columns)
    .from(jobs)
    .innerJoin(user, eq(user.id, jobs.userId))
    .where(inArray(jobs.status, [...ACTIVE]))
    .orderBy(jobs.createdAt)
    .limit(100);
  const recent =
    active.length >= 100
      ? []
      : await db
          .select(columns)
          .from(jobs)
          .innerJoin(user, eq(user.id, jobs.userId))
          .where(notInArray(jobs.status, [...ACTIVE]))
          .orderBy(desc(jobs.createdAt))
          .limit(100 - active.length);
  return [...active, ...recent].map(({ isAnonymous, ...row }) => ({
    ...row,
    // An anonymous session's address is made up: it has none to show.
    email: isAnonymous ? null : row.email,
    createdAt: row.createdAt.toISOString(),
  }));
}
