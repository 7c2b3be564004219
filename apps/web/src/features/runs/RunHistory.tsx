import type { RunSummary, RunView } from "@atelier/core";
import { useEffect, useState } from "react";
import { Modal } from "../../ui/Modal.tsx";
import { notify } from "../../ui/notify.ts";
import { mediaHref } from "../nodes/viewers/safe-url.ts";
import { historyActions } from "./history-actions.ts";
import { queueActions } from "./queue-actions.ts";
import { useServerQueue } from "./queue-store.ts";

const when = (iso: string) => new Date(iso).toLocaleString();

function duration(run: RunSummary): string {
  if (!run.startedAt || !run.completedAt) return "—";
  const seconds = (Date.parse(run.completedAt) - Date.parse(run.startedAt)) / 1000;
  return seconds < 60 ? `${seconds.toFixed(1)} s` : `${Math.round(seconds / 60)} min`;
}

const cost = (run: RunSummary) => (run.cost === null ? "—" : `$${run.cost.toFixed(2)}`);

/** A run's overrides and each node's outputs (links checked by the URL allow-list). */
function RunDetails({ run }: { run: RunView }) {
  const overrides = Object.entries(run.inputs);
  return (
    <section aria-label="Run details">
      <h3>Inputs</h3>
      {overrides.length === 0 ? (
        <p className="muted">The workflow's own values (no overrides).</p>
      ) : (
        <ul>
          {overrides.flatMap(([nodeId, values]) =>
            Object.entries(values).map(([name, value]) => (
              <li key={`${nodeId}.${name}`}>
                {nodeId} · {name}: {JSON.stringify(value)}
              </li>
            )),
          )}
        </ul>
      )}
      <h3>Nodes</h3>
      <ul>
        {run.nodes.map((node) => (
          <li key={node.id} className={`status-${node.status}`}>
            <strong>{node.label ?? node.type}</strong> · {node.status.replace("_", " ")}
            {node.error ? ` · ${node.error}` : ""}
            {Object.entries(node.outputs ?? {}).map(([key, value]) => {
              const href = mediaHref(value);
              return href ? (
                <a key={key} href={href} target="_blank" rel="noopener noreferrer">
                  {` ${key}`}
                </a>
              ) : null;
            })}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The open workflow's runs (ADR 0010): when, status, duration, nodes and cost when known,
 * newest first; opening one shows its inputs and outputs; a failed or cancelled one can be
 * retried (its failed and not-run nodes).
 */
export function RunHistory({ workflowId, onClose }: { workflowId: string; onClose(): void }) {
  const [runs, setRuns] = useState<RunSummary[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [open, setOpen] = useState<RunView | null>(null);
  const load = async (after: string | null) => {
    try {
      const page = await historyActions.page(workflowId, after);
      setRuns((shown) => [...(after ? (shown ?? []) : []), ...page.runs]);
      setCursor(page.nextCursor);
    } catch (error) {
      notify.error(error instanceof Error ? error.message : String(error));
      setRuns((shown) => shown ?? []);
    }
  };
  // The first page again whenever the queue changes (a run started, ended or was retried).
  const queued = useServerQueue((state) => state.runs);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloads on those changes only
  useEffect(() => {
    void load(null);
  }, [workflowId, queued]);
  const show = async (id: string) => {
    try {
      setOpen(await historyActions.run(id));
    } catch (error) {
      notify.error(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <Modal label="Run history" onClose={onClose}>
      <div className="run-history">
        <h2>Run history</h2>
        {runs === null ? <p className="muted">Loading…</p> : null}
        {runs?.length === 0 ? (
          <p className="muted">No runs yet. Run all or Run to here starts one.</p>
        ) : null}
        {runs && runs.length > 0 ? (
          <table>
            <thead>
              <tr>
                <th>When</th>
                <th>Status</th>
                <th>Duration</th>
                <th>Nodes</th>
                <th>Cost</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => (
                <tr key={run.id} className={`status-${run.status}`}>
                  <td>
                    <button type="button" className="link" onClick={() => void show(run.id)}>
                      {when(run.createdAt)}
                    </button>
                  </td>
                  <td>{run.status}</td>
                  <td>{duration(run)}</td>
                  <td>{run.nodes.length}</td>
                  <td>{cost(run)}</td>
                  <td>
                    {run.status === "failed" || run.status === "cancelled" ? (
                      <button
                        type="button"
                        onClick={() => void queueActions.retry(run.id).then(() => load(null))}
                      >
                        Retry
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        {cursor ? (
          <button type="button" onClick={() => void load(cursor)}>
            Load more
          </button>
        ) : null}
        {open ? <RunDetails run={open} /> : null}
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
