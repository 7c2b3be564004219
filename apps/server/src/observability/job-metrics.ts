import { sql } from "drizzle-orm";
import type { AppDb } from "../db/client.ts";
import { jobs } from "../db/schema.ts";

/**
 * Job figures for /metrics, read from the jobs table on each scrape rather than counted in
 * memory: jobs are created by web processes and moved on by workers, which serve no HTTP,
 * so only the table sees them all — and it keeps them across restarts.
 */

/** A job row's status as the metric's `state` label. */
export const JOB_STATES = {
  IN_QUEUE: "queued",
  IN_PROGRESS: "running",
  COMPLETED: "completed",
  FAILED: "failed",
  CANCELLED: "cancelled",
} as const;

export type JobState = (typeof JOB_STATES)[keyof typeof JOB_STATES];

/** Upper bounds (seconds) of the queue wait histogram's buckets. */
export const QUEUE_WAIT_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

export interface JobCount {
  state: JobState;
  provider: string;
  count: number;
}

/** How many jobs each provider has in each state. */
export async function countJobs(db: AppDb): Promise<JobCount[]> {
  const rows = await db
    .select({ status: jobs.status, provider: jobs.provider, n: sql<string | number>`count(*)` })
    .from(jobs)
    .groupBy(jobs.status, jobs.provider);
  return rows.map((row) => ({
    state: JOB_STATES[row.status],
    provider: row.provider,
    count: Number(row.n),
  }));
}

export interface QueueWaits {
  provider: string;
  /** Cumulative: jobs that waited at most each of QUEUE_WAIT_BUCKETS. */
  buckets: number[];
  count: number;
  /** Seconds, all jobs together. */
  sum: number;
}

/**
 * Every started job's wait from its creation to its submission to the provider (`started_at`),
 * per provider, as histogram buckets. A wait below zero (clocks of two processes) counts as 0.
 */
export async function queueWaits(db: AppDb): Promise<QueueWaits[]> {
  const wait = sql`greatest(0, extract(epoch from (${jobs.startedAt} - ${jobs.createdAt})))`;
  const buckets = Object.fromEntries(
    QUEUE_WAIT_BUCKETS.map((bound, index) => [
      `b${index}`,
      sql<string | number>`count(*) filter (where ${wait} <= ${sql.raw(String(bound))})`,
    ]),
  );
  const rows = await db
    .select({
      provider: jobs.provider,
      n: sql<string | number>`count(*)`,
      total: sql<string | number>`coalesce(sum(${wait}), 0)::float8`,
      ...buckets,
    })
    .from(jobs)
    .where(sql`${jobs.startedAt} is not null`)
    .groupBy(jobs.provider);
  return rows.map((row) => {
    const values = row as unknown as Record<string, string | number>;
    return {
      provider: row.provider,
      buckets: QUEUE_WAIT_BUCKETS.map((_, index) => Number(values[`b${index}`])),
      count: Number(row.n),
      sum: Number(row.total),
    };
  });
}
