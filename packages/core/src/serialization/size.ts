import { LIMITS } from "../limits.ts";

export type SaveStrategy = "single" | "batched" | "chunked" | "too-large";

/**
 * How a workflow of this many bytes is saved (SPEC §9): over 2 MB in node batches, over
 * 5 MB as chunks, over 10 MB not at all.
 */
export function saveStrategy(bytes: number): SaveStrategy {
  const { batchAboveBytes, chunkAboveBytes, maxWorkflowBytes } = LIMITS.chunking;
  if (bytes > maxWorkflowBytes) return "too-large";
  if (bytes > chunkAboveBytes) return "chunked";
  if (bytes > batchAboveBytes) return "batched";
  return "single";
}

export function formatMegabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(2);
}

/** SPEC §5's refusal for a workflow still over 10 MB after processing, or null. */
export function workflowTooLargeMessage(bytes: number): string | null {
  if (bytes <= LIMITS.chunking.maxWorkflowBytes) return null;
  return `Workflow data is still ${formatMegabytes(bytes)} MB after processing. This is too large for the database. Please try clearing some outputs manually.`;
}

/** True when the toast "Saving large workflow, this may take a moment..." is due. */
export function isLargeWorkflow(nodeCount: number, edgeCount: number): boolean {
  return nodeCount + edgeCount > LIMITS.workflow.largeWorkflowElements;
}

/** Splits items into batches of `size` (node batches of 20 for batch saving). */
export function inBatches<T>(
  items: readonly T[],
  size: number = LIMITS.chunking.nodesPerBatch,
): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size)
    batches.push(items.slice(start, start + size));
  return batches;
}
