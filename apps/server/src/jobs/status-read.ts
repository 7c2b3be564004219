import { and, eq, sql } from "drizzle-orm";
import type { AppDb } from "../db/client.ts";
import type { JobRow } from "../db/rows.ts";
import { jobs } from "../db/schema.ts";
import { NotFoundError } from "../domain/errors.ts";
import { presentJobStatus } from "../http/presenters.ts";
import type { JobStatusCache } from "./status-cache.ts";

/**
 * The job status poll's read: one statement by primary key and owner (another user's job is
 * simply not found), only the columns the answer shows — never the job's input, which can be
 * large — prepared once per database so a poll neither rebuilds the SQL nor (on PostgreSQL)
 * re-plans it.
 */
const STATUS_COLUMNS = {
  id: jobs.id,
  nodeId: jobs.nodeId,
  workflowId: jobs.workflowId,
  model: jobs.model,
  endpoint: jobs.endpoint,
  status: jobs.status,
  queuePosition: jobs.queuePosition,
  logs: jobs.logs,
  progress: jobs.progress,
  outputs: jobs.outputs,
  outputValues: jobs.outputValues,
  error: jobs.error,
};

export type JobStatusRow = Pick<JobRow, keyof typeof STATUS_COLUMNS>;

function prepare(db: AppDb) {
  return db
    .select(STATUS_COLUMNS)
    .from(jobs)
    .where(and(eq(jobs.id, sql.placeholder("id")), eq(jobs.userId, sql.placeholder("userId"))))
    .limit(1)
    .prepare("atelier_job_status");
}

const prepared = new WeakMap<AppDb, ReturnType<typeof prepare>>();

export type JobStatusAnswer = ReturnType<typeof presentStatusRow>;

/**
 * SPEC §7's status answer for one of the user's jobs; another user's job is 404. With a
 * cache, a recent answer for this user is given back without a database read.
 */
export function readOwnJobStatus(
  db: AppDb,
  userId: string,
  jobId: string,
  cache?: JobStatusCache<JobStatusAnswer>,
): Promise<JobStatusAnswer> {
  const read = async () => {
    let query = prepared.get(db);
    if (!query) {
      query = prepare(db);
      prepared.set(db, query);
    }
    const [row] = await query.execute({ id: jobId, userId });
    if (!row) throw new NotFoundError("Job not found");
    return presentStatusRow(row);
  };
  return cache ? cache.get(jobId, userId, read) : read();
}

/**
 * The same answer as the JSON the route sends, for the status cache: a poll answered from
 * the cache then costs no serialization (the bytes are shared, never written to).
 */
export function readOwnJobStatusJson(
  db: AppDb,
  userId: string,
  jobId: string,
  cache: JobStatusCache<Buffer>,
): Promise<Buffer> {
  return cache.get(jobId, userId, async () =>
    Buffer.from(JSON.stringify(await readOwnJobStatus(db, userId, jobId))),
  );
}

/** `presentJobStatus` reads only the status columns (test/status-read.test.ts holds it to that). */
export function presentStatusRow(row: JobStatusRow) {
  return presentJobStatus(row as JobRow);
}
