import { useState } from "react";
import { useDocument } from "../document/context.tsx";
import { useRunner } from "./context.tsx";
import { useServerQueue } from "./queue-store.ts";
import { RunQueue } from "./RunQueue.tsx";
import { isActive, type RunEntry, useRuns } from "./runs-store.ts";

const STATUS_TEXT: Record<string, string> = {
  IN_QUEUE: "Queued",
  IN_PROGRESS: "Running",
  COMPLETED: "Done",
  FAILED: "Failed",
  CANCELLED: "Cancelled",
};

function describe(run: RunEntry): string {
  if (run.status === "IN_QUEUE" && run.queuePosition) return `Queued · #${run.queuePosition}`;
  if (run.status === "IN_PROGRESS" && run.progress !== null) return `Running · ${run.progress} %`;
  if (run.status === "FAILED" && run.error) return run.error;
  return STATUS_TEXT[run.status] ?? run.status;
}

/** The node's label for the queue list (its own selector: the list re-renders, nodes do not). */
function NodeName({ id, fallback }: { id: string; fallback: string }) {
  const label = useDocument(
    (state) => state.nodes.find((node) => node.id === id)?.data.label as string | undefined,
  );
  return <>{label ?? fallback}</>;
}

/**
 * The user's server-side runs (RunQueue), then every queued and running job of this tab,
 * newest first, with its position or progress,
 * last log line and Cancel. SPEC §4: a cancelled entry leaves after 1 s, a completed one
 * after 2 s (the runs store removes them).
 */
export function QueuePanel() {
  const runs = Object.values(useRuns()).sort((a, b) => b.startTime - a.startTime);
  const runner = useRunner();
  const serverQueued = useServerQueue((state) => state.paused || state.runs.length > 0);
  // Phones (styles.css): the panel is a bottom sheet with a close button; closed, it stays
  // away until a newer job starts.
  const [closedAt, setClosedAt] = useState(0);
  if (runs.length === 0 && !serverQueued) return null;
  if (closedAt > 0 && (runs[0]?.startTime ?? 0) <= closedAt) return null;
  return (
    <aside className="queue-panel" aria-label="Queue">
      <div className="sheet-head">
        <h2>Queue</h2>
        <button
          type="button"
          className="sheet-close"
          aria-label="Close"
          onClick={() => setClosedAt(Date.now())}
        >
          ✕
        </button>
      </div>
      <RunQueue />
      <ul>
        {runs.map((run) => (
          <li key={run.requestId} className={`queue-entry status-${run.status}`}>
            <strong>
              <NodeName id={run.nodeId} fallback={run.model} />
            </strong>
            <span role="status">{describe(run)}</span>
            {run.status === "IN_PROGRESS" && run.progress !== null ? (
              <progress max={100} value={run.progress} aria-label="Progress" />
            ) : null}
            {run.logs.length > 0 ? (
              <small className="muted">{run.logs[run.logs.length - 1]?.message}</small>
            ) : null}
            {isActive(run) ? (
              <button type="button" onClick={() => void runner.cancel(run.nodeId)}>
                Cancel
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </aside>
  );
}
