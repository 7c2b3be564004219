import { type AdminJob, dollars, getNodeDefinition } from "@atelier/core";
import { FormError } from "../../ui/FormError.tsx";
import { adminActions, adminFailure } from "./admin-actions.ts";
import { useAdminRead } from "./use-admin-read.ts";

const ACTIVE = new Set(["IN_QUEUE", "IN_PROGRESS"]);
const STATUS: Record<string, string> = {
  IN_QUEUE: "Queued",
  IN_PROGRESS: "Running",
  COMPLETED: "Done",
  FAILED: "Failed",
  CANCELLED: "Cancelled",
};
const when = new Intl.DateTimeFormat(undefined, { dateStyle: "short", timeStyle: "short" });

/** Jobs across users: the unfinished first, each cancellable, then the latest others. */
export function Jobs() {
  const { data: jobs, error, setError, reload: load } = useAdminRead<AdminJob[]>(adminActions.jobs);

  const cancel = async (job: AdminJob) => {
    try {
      await adminActions.cancelJob(job.id);
      load();
    } catch (failure) {
      setError(adminFailure(failure));
    }
  };

  return (
    <section aria-label="Jobs" className="admin-section">
      <div className="admin-section-head">
        <h2>Jobs</h2>
        <button type="button" onClick={load}>
          Refresh
        </button>
      </div>
      <FormError message={error} />
      {jobs === null ? (
        error ? null : (
          <p className="muted">Loading jobs…</p>
        )
      ) : jobs.length === 0 ? (
        <p className="muted">No jobs yet.</p>
      ) : (
        <table className="admin-table" aria-label="Jobs across users">
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">User</th>
              <th scope="col">Model</th>
              <th scope="col">Provider</th>
              <th scope="col">Status</th>
              <th scope="col">Cost</th>
              <th scope="col">Cancel</th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((job) => (
              <tr key={job.id}>
                <td>{when.format(new Date(job.createdAt))}</td>
                <td>{job.email ?? "Anonymous session"}</td>
                <td>{getNodeDefinition(job.model)?.displayName ?? job.model}</td>
                <td>{job.provider}</td>
                <td title={job.error ?? undefined}>{STATUS[job.status] ?? job.status}</td>
                <td>{job.costUsd === null ? "unknown" : dollars(job.costUsd)}</td>
                <td>
                  {ACTIVE.has(job.status) ? (
                    <button
                      type="button"
                      aria-label={`Cancel ${job.email ?? "anonymous"}'s ${job.model} job`}
                      onClick={() => void cancel(job)}
                    >
                      Cancel
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
