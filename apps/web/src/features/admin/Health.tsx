import type { InstanceHealth } from "@atelier/core";
import { FormError } from "../../ui/FormError.tsx";
import { adminActions } from "./admin-actions.ts";
import { useAdminRead } from "./use-admin-read.ts";

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const waited = (value: number) =>
  value < 120 ? `${Math.round(value)} s` : `${Math.round(value / 60)} min`;

/** The instance now: queue depth and age, workers alive, storage, provider errors. */
export function Health() {
  const { data: health, error, reload: load } = useAdminRead<InstanceHealth>(adminActions.health);
  return (
    <section aria-label="Instance health" className="admin-section">
      <div className="admin-section-head">
        <h2>Instance health</h2>
        <button type="button" onClick={load}>
          Refresh
        </button>
      </div>
      <FormError message={error} />
      {health === null ? (
        error ? null : (
          <p className="muted">Checking the instance…</p>
        )
      ) : (
        <dl className="admin-health">
          <dt>Queue</dt>
          <dd>
            {health.queue.queued} queued · {health.queue.running} running
            {health.queue.oldestQueuedSeconds === null
              ? ""
              : ` · the oldest has waited ${waited(health.queue.oldestQueuedSeconds)}`}{" "}
            · {health.queue.activeRuns} runs under way
          </dd>
          <dt>Workers alive</dt>
          <dd>
            {health.workers.length === 0
              ? "None: no process works the queue"
              : health.workers
                  .map(
                    (worker) => `${worker.host} (pid ${worker.pid}, ${worker.concurrency} at once)`,
                  )
                  .join(", ")}
          </dd>
          <dt>Storage used</dt>
          <dd>
            {megabytes(health.storage.mediaBytes)} of media ·{" "}
            {megabytes(health.storage.workflowBytes)} of workflows
          </dd>
          <dt>Provider errors, last hour</dt>
          <dd>
            {health.providerErrors.length === 0 ? (
              "None"
            ) : (
              <ul className="admin-list">
                {health.providerErrors.map((row) => (
                  <li key={row.provider}>
                    {row.provider}: {row.failed} failed
                    {row.lastError ? ` — latest: ${row.lastError}` : ""}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </dl>
      )}
    </section>
  );
}
