import { RunEstimate } from "../costs/cost-parts.ts";

/** Run all, with what it is expected to cost (the nodes that would run, at published prices). */
export function RunAllButton({ onRun }: { onRun: () => void }) {
  return (
    <button
      type="button"
      onClick={onRun}
      title="Run every node in dependency order; unchanged nodes keep their results"
    >
      Run all
      <RunEstimate />
    </button>
  );
}
