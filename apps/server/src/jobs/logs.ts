import type { JobLog } from "../providers/provider.ts";

/** A job keeps its last 50 log lines. */
export const JOB_LOG_LINES = 50;

const sameLine = (a: JobLog, b: JobLog) =>
  a.message === b.message && a.level === b.level && a.timestamp === b.timestamp;

/**
 * The lines of a status read the job's log does not hold yet. A read may repeat lines an
 * earlier one gave — the local provider names its current step on every read, fal's status
 * can carry the whole log again — so the longest run that ends the kept log and starts the
 * read's (its latest lines, as many as a job keeps) is skipped.
 */
export function newLogLines(kept: readonly JobLog[], read: readonly JobLog[]): JobLog[] {
  const latest = read.slice(-JOB_LOG_LINES);
  for (let overlap = Math.min(kept.length, latest.length); overlap > 0; overlap--) {
    const tail = kept.slice(-overlap);
    if (tail.every((line, at) => sameLine(line, latest[at] as JobLog)))
      return latest.slice(overlap);
  }
  return latest;
}
