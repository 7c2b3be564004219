import { LIMITS, RUN_ENGINE_MESSAGES, type RunView } from "@atelier/core";
import type { CanvasNodeData } from "../document/types.ts";
import type { HistoryEntry } from "./ResultHistory.tsx";
import type { RunsStore } from "./runs-store.ts";

export interface ApplyRunDeps {
  /** The node's data now, or undefined when it is not on the canvas. */
  data(nodeId: string): CanvasNodeData | undefined;
  /** Writes a node's run state (not undoable, DESIGN §4.7). */
  write(nodeId: string, patch: Partial<CanvasNodeData>): void;
  /** The node's run signature as the editor computes it (what its result was made from). */
  signature(nodeId: string): string;
  runs: RunsStore;
  /** Called once per step that completes while the tab watches it (notifications). */
  onComplete?: (nodeId: string, type: string) => void;
}

type Step = RunView["nodes"][number];

/**
 * Applies a server-side run to the document, step by step (ADR 0010): queued and running
 * steps show as processing in the queue panel; a completed step takes its outputs and a
 * history entry (once, by its request id); a skipped one says it kept its result; a failed
 * or not-run step shows why; a cancelled one goes back to idle. `seen` remembers what was
 * applied, so a repeated event changes nothing.
 */
export function applyRun(run: RunView, deps: ApplyRunDeps, seen: Map<string, string>) {
  for (const step of run.nodes) {
    const key = `${run.id}:${step.id}`;
    const state = `${step.status}:${step.attempt}:${step.progress ?? ""}`;
    if (seen.get(key) === state) continue;
    seen.set(key, state);
    const data = deps.data(step.id);
    if (!data) continue;
    applyStep(run, step, data, deps);
  }
}

function applyStep(run: RunView, step: Step, data: CanvasNodeData, deps: ApplyRunDeps) {
  const entry = {
    nodeId: step.id,
    model: step.type,
    requestId: step.requestId ?? `run:${run.id}`,
    runId: run.id,
    progress: step.progress,
    lastUpdate: Date.now(),
  };
  switch (step.status) {
    case "queued":
    case "running":
      deps.runs.getState().upsert({
        ...entry,
        status: step.status === "queued" ? "IN_QUEUE" : "IN_PROGRESS",
        error: null,
      });
      if (data.status !== "processing") deps.write(step.id, { status: "processing", error: null });
      return;
    case "completed": {
      deps.runs.getState().upsert({ ...entry, status: "COMPLETED", error: null });
      const history = (data.history as HistoryEntry[] | undefined) ?? [];
      if (step.requestId && history.some((item) => item.requestId === step.requestId)) {
        if (data.status !== "complete") deps.write(step.id, { status: "complete" });
        return;
      }
      const outputs = step.outputs ?? {};
      const outputValues = (step.outputValues ?? {}) as CanvasNodeData["outputValues"];
      deps.write(step.id, {
        status: "complete",
        outputs,
        outputValues,
        error: null,
        runNote: null,
        history: [
          ...history,
          {
            requestId: step.requestId ?? run.id,
            at: Date.parse(step.completedAt ?? "") || Date.now(),
            outputs,
            outputValues: outputValues ?? {},
          },
        ].slice(-LIMITS.text.historyEntries),
      });
      deps.write(step.id, { runSignature: deps.signature(step.id) });
      deps.onComplete?.(step.id, step.type);
      return;
    }
    case "skipped":
      deps.runs.getState().remove(step.id);
      deps.write(step.id, {
        status: "complete",
        runNote: step.note ?? RUN_ENGINE_MESSAGES.unchanged,
      });
      return;
    case "failed":
    case "not_run":
      deps.runs.getState().upsert({ ...entry, status: "FAILED", error: step.error ?? null });
      deps.write(step.id, { status: "error", error: step.error ?? RUN_ENGINE_MESSAGES.cancelled });
      return;
    case "cancelled":
      deps.runs.getState().upsert({ ...entry, status: "CANCELLED", error: null });
      deps.write(step.id, { status: "idle", error: null });
      return;
  }
}
