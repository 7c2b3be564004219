import type { AppDb } from "../db/client.ts";
import type { JobRow } from "../db/rows.ts";
import { finish } from "../jobs/steps.ts";
import type { ProviderRegistry } from "../providers/registry.ts";
import { getOwnJob, isTerminal } from "./generation.ts";

export interface CancelDeps {
  db: AppDb;
  /** The providers (opened on first use): a submitted job is cancelled there too. */
  providers: () => Promise<ProviderRegistry>;
  /** Told the job changed (drops its cached status answer). */
  changed?: (jobId: string) => void;
  /** Told when the provider's cancel failed (the job stays cancelled here). */
  providerCancelFailed?: (error: unknown, jobId: string) => void;
}

/**
 * Cancels one of the user's jobs (the caller checked it may, policy/access.ts): a job not
 * yet finished ends CANCELLED, and a submitted one is cancelled at its provider, best
 * effort. Answers the job as it is now (a finished one is left as it was).
 */
export async function cancelJob(deps: CancelDeps, job: JobRow): Promise<JobRow> {
  if (!isTerminal(job.status)) {
    await finish({ db: deps.db }, job, { status: "CANCELLED" });
    deps.changed?.(job.id);
    if (job.providerRequestId) {
      const provider = (await deps.providers()).get(job.provider);
      await provider?.cancel(job.endpoint, job.providerRequestId).catch((error) => {
        deps.providerCancelFailed?.(error, job.id);
      });
    }
  }
  return getOwnJob(deps.db, job.userId, job.id);
}
