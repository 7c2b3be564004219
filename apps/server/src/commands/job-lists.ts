import { and, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { AppDb } from "../db/client.ts";
import type { JobRow } from "../db/rows.ts";
import { jobs } from "../db/schema.ts";

/** The user's latest 100 jobs, newest first, of one workflow when given. */
export function listJobs(db: AppDb, userId: string, workflowId?: string): Promise<JobRow[]> {
  const filters: SQL[] = [eq(jobs.userId, userId)];
  if (workflowId) filters.push(eq(jobs.workflowId, workflowId));
  return db
    .select()
    .from(jobs)
    .where(and(...filters))
    .orderBy(desc(jobs.createdAt))
    .limit(100);
}

/** The user's jobs still queued or running (an event stream's opening state). */
export function listActiveJobs(db: AppDb, userId: string): Promise<JobRow[]> {
  return db
    .select()
    .from(jobs)
    .where(and(eq(jobs.userId, userId), inArray(jobs.status, ["IN_QUEUE", "IN_PROGRESS"])));
}
