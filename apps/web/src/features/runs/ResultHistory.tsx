import { memo } from "react";
import { useDocument } from "../document/context.tsx";

/** One finished run of a node, as kept in its `history`. */
export interface HistoryEntry {
  requestId: string;
  at: number;
  outputs: Record<string, unknown>;
  outputValues: Record<string, { value: unknown }>;
}

/**
 * Steps through a node's recent results; the one shown becomes its outputs (what connected
 * nodes read), as an undoable edit.
 */
export const ResultHistory = memo(function ResultHistory({
  id,
  history,
  outputs,
}: {
  id: string;
  history: HistoryEntry[] | undefined;
  outputs: Record<string, unknown> | undefined;
}) {
  const updateNodeData = useDocument((state) => state.updateNodeData);
  if (!history || history.length < 2) return null;
  const shown = JSON.stringify(outputs ?? {});
  const found = history.findIndex((entry) => JSON.stringify(entry.outputs) === shown);
  const active = found === -1 ? history.length - 1 : found;
  const pick = (index: number) => {
    const entry = history[index];
    if (entry) updateNodeData(id, { outputs: entry.outputs, outputValues: entry.outputValues });
  };
  return (
    <nav className="result-history nodrag" aria-label="Results">
      <button
        type="button"
        aria-label="Previous result"
        disabled={active === 0}
        onClick={() => pick(active - 1)}
      >
        ‹
      </button>
      <span>
        Result {active + 1} of {history.length}
      </span>
      <button
        type="button"
        aria-label="Next result"
        disabled={active === history.length - 1}
        onClick={() => pick(active + 1)}
      >
        ›
      </button>
    </nav>
  );
});
