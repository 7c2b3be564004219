import type { RunSummary, RunView } from "@atelier/core";
import type { RunRead } from "../commands/runs/run-reads.ts";

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** What the run's completed steps cost; null when one of them has no published price. */
function runCost(nodes: RunRead["nodes"], costs: RunRead["costs"]): number | null {
  let usd = 0;
  for (const node of nodes) {
    if (node.status !== "completed" || !node.jobId) continue;
    const cost = costs.get(node.jobId);
    if (cost === null || cost === undefined) return null;
    usd += cost;
  }
  return Math.round(usd * 10_000) / 10_000;
}

/** A run as the API shows it; `withOutputs` adds each step's outputs (a single run's read). */
export function presentRun(read: RunRead, withOutputs: true): RunView;
export function presentRun(read: RunRead, withOutputs: false): RunSummary;
export function presentRun(
  { run, nodes, progress, costs }: RunRead,
  withOutputs: boolean,
): RunView {
  return {
    id: run.id,
    workflowId: run.workflowId,
    status: run.status,
    target: run.target as RunView["target"],
    inputs: run.inputs,
    createdAt: run.createdAt.toISOString(),
    startedAt: iso(run.startedAt),
    completedAt: iso(run.completedAt),
    cost: runCost(nodes, costs),
    nodes: nodes.map((node) => ({
      id: node.nodeId,
      type: node.type,
      label: node.label,
      status: node.status,
      requestId: node.jobId,
      attempt: node.attempt,
      progress: node.jobId ? (progress.get(node.jobId) ?? null) : null,
      startedAt: iso(node.startedAt),
      completedAt: iso(node.completedAt),
      ...(withOutputs && node.outputs ? { outputs: node.outputs } : {}),
      ...(withOutputs && node.outputValues ? { outputValues: node.outputValues } : {}),
      ...(node.error ? { error: node.error } : {}),
      ...(node.note ? { note: node.note } : {}),
    })),
  };
}
