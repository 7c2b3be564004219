import { LIMITS, type SavedWorkflow, WORKFLOW_ERRORS, type WorkflowRow } from "@atelier/core";
import { ApiError, api } from "../../services/api.ts";

export interface BatchSaveOptions {
  /** Waits before a retry; tests pass an immediate one. */
  wait?: (ms: number) => Promise<void>;
  /** Fraction of batches sent, 0–1. */
  onProgress?: (fraction: number) => void;
  client?: Pick<typeof api, "stageBatch" | "commitSave" | "dropSave">;
}

/** Batches sent at once: fewer than a browser's 6 connections per host, so polling still gets one. */
export const BATCHES_IN_FLIGHT = 4;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** 4xx answers other than timeouts and rate limits will not change on a retry. */
const isFinal = (error: unknown) =>
  error instanceof ApiError &&
  error.status >= 400 &&
  error.status < 500 &&
  ![408, 429].includes(error.status);

/**
 * Saves a large workflow (over 2 MB, SPEC §9) as node batches of 20, 4 at a time, each retried
 * 3 times after 1 s, 2 s and 3 s, then commits them as one save on the server: the previous version
 * stays whole until the commit lands. A 409 passes through for the conflict dialog.
 */
export async function saveInBatches(
  id: string,
  name: string,
  data: SavedWorkflow,
  basedOn: string,
  options: BatchSaveOptions = {},
): Promise<WorkflowRow> {
  const client = options.client ?? api;
  const wait = options.wait ?? sleep;
  const { nodesPerBatch, batchBackoffMs } = LIMITS.chunking;
  const saveId = crypto.randomUUID();
  const batches = Math.max(1, Math.ceil(data.nodes.length / nodesPerBatch));

  const stage = async (index: number) => {
    const nodes = data.nodes.slice(index * nodesPerBatch, (index + 1) * nodesPerBatch);
    for (let attempt = 0; ; attempt++) {
      try {
        await client.stageBatch(id, saveId, index, nodes);
        return;
      } catch (error) {
        if (isFinal(error) || failed) throw error;
        const delay = batchBackoffMs[attempt];
        if (delay === undefined) throw new Error(WORKFLOW_ERRORS.retries);
        await wait(delay);
        if (failed) throw failed;
      }
    }
  };

  // A few batches in flight hide the round trips (84 of them for 5 MB of used nodes); the
  // first failure stops new ones, and the staged save is dropped.
  let next = 0;
  let sent = 0;
  let failed: unknown = null;
  const lane = async () => {
    while (next < batches && !failed) {
      const index = next++;
      try {
        await stage(index);
      } catch (error) {
        failed ??= error;
        return;
      }
      sent++;
      options.onProgress?.(sent / batches);
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCHES_IN_FLIGHT, batches) }, lane));
  if (failed) {
    await client.dropSave(id, saveId).catch(() => undefined);
    throw failed;
  }

  try {
    const { workflow } = await client.commitSave(id, saveId, {
      name,
      basedOn,
      batches,
      data: { ...data, nodes: [] },
    });
    return workflow;
  } catch (error) {
    await client.dropSave(id, saveId).catch(() => undefined);
    if (error instanceof ApiError && error.status === 409) throw error;
    throw new Error(WORKFLOW_ERRORS.finalize);
  }
}
