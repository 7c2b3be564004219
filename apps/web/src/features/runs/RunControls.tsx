import { memo } from "react";
import { CostPart } from "../costs/cost-parts.ts";
import { useRunner } from "./context.tsx";
import { isActive, useNodeRun } from "./runs-store.ts";

/**
 * A node's Run button, its cost estimate, and while its job runs: queue position or progress, and Cancel.
 * Subscribes to this node's queue entry only.
 */
export const RunControls = memo(function RunControls({ id, type }: { id: string; type: string }) {
  const runner = useRunner();
  const run = useNodeRun(id);
  if (!runner.isRunnable(type)) return null;
  if (run && isActive(run)) {
    const where =
      run.status === "IN_QUEUE"
        ? `Queued${run.queuePosition ? ` · #${run.queuePosition}` : ""}`
        : `Running${run.progress !== null ? ` · ${run.progress} %` : ""}`;
    return (
      <span className="run-controls nodrag">
        <span className="run-state" role="status">
          {where}
        </span>
        {run.status === "IN_PROGRESS" && run.progress !== null ? (
          <progress max={100} value={run.progress} aria-label="Progress" />
        ) : null}
        <button type="button" className="run-cancel" onClick={() => void runner.cancel(id)}>
          Cancel
        </button>
      </span>
    );
  }
  return (
    <span className="run-controls nodrag">
      <button type="button" className="run-button" onClick={() => void runner.run(id)}>
        Run
      </button>
      <button
        type="button"
        className="link"
        title="Run this node and everything that feeds it"
        onClick={() => void runner.runGraph(id)}
      >
        Run to here
      </button>
      <CostPart id={id} type={type} />
    </span>
  );
});
