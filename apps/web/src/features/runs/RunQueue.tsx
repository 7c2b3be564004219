import type { RunSummary } from "@atelier/core";
import { queueActions } from "./queue-actions.ts";
import { useServerQueue } from "./queue-store.ts";

const STATUS_TEXT: Record<string, string> = {
  queued: "Queued",
  running: "Running",
  paused: "Paused",
};

/** "3 of 5 nodes done" */
function progressOf(run: RunSummary): string {
  const done = run.nodes.filter((node) =>
    ["completed", "skipped", "failed", "not_run", "cancelled"].includes(node.status),
  ).length;
  return `${done} of ${run.nodes.length} nodes done`;
}

/**
 * The user's server-side runs in queue order (ADR 0010), with the queue's controls: pause
 * and resume (queued nodes wait, running ones finish), move a run up or down, cancel one or
 * all. Failed runs are retried from the workflow's run history.
 */
export function RunQueue() {
  const paused = useServerQueue((state) => state.paused);
  const runs = useServerQueue((state) => state.runs);
  if (runs.length === 0 && !paused) return null;
  return (
    <section className="run-queue" aria-label="Runs">
      <header className="run-queue-head">
        <h3>Runs{paused ? " · paused" : ""}</h3>
        <button type="button" onClick={() => void queueActions.setPaused(!paused)}>
          {paused ? "Resume queue" : "Pause queue"}
        </button>
        {runs.length > 0 ? (
          <button type="button" onClick={() => void queueActions.cancelAll()}>
            Cancel all
          </button>
        ) : null}
      </header>
      <ol aria-label="Queued runs">
        {runs.map((run, at) => (
          <li key={run.id} className={`run-entry status-${run.status}`}>
            <strong>{run.nodes.map((node) => node.label ?? node.type).join(" → ")}</strong>
            <span role="status">
              {STATUS_TEXT[run.status] ?? run.status} · {progressOf(run)}
            </span>
            <span className="run-entry-actions">
              <button
                type="button"
                aria-label={`Move run ${at + 1} up`}
                disabled={at === 0}
                onClick={() => void queueActions.move(run.id, "up")}
              >
                ↑
              </button>
              <button
                type="button"
                aria-label={`Move run ${at + 1} down`}
                disabled={at === runs.length - 1}
                onClick={() => void queueActions.move(run.id, "down")}
              >
                ↓
              </button>
              <button
                type="button"
                aria-label={`Cancel run ${at + 1}`}
                onClick={() => void queueActions.cancel(run.id)}
              >
                Cancel
              </button>
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
