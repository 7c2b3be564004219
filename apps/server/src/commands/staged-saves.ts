import { WORKFLOW_ERRORS } from "@atelier/core";
import { HttpError } from "../http/errors.ts";
import type { BlobStore } from "../storage/blob-store.ts";

/**
 * Batches of a save in progress wait in storage, under the user's own prefix, until the
 * commit reads them back. Retrying a batch replaces it, so a retry never doubles nodes.
 */
const prefix = (userId: string, workflowId: string, saveId: string) =>
  `staging/${userId}/${workflowId}/${saveId}/`;

const batchKey = (userId: string, workflowId: string, saveId: string, index: number) =>
  `${prefix(userId, workflowId, saveId)}${String(index).padStart(6, "0")}.json`;

/** Stores (or replaces) batch `index` of a staged save. */
export async function stageBatch(
  store: BlobStore,
  ids: { userId: string; workflowId: string; saveId: string },
  index: number,
  nodes: unknown[],
): Promise<void> {
  const key = batchKey(ids.userId, ids.workflowId, ids.saveId, index);
  await store.delete([key]);
  await store.put(key, Buffer.from(JSON.stringify(nodes)), "application/json");
}

/** The nodes of batches 0…count-1 in order; a missing batch fails the commit. */
export async function readStagedNodes(
  store: BlobStore,
  ids: { userId: string; workflowId: string; saveId: string },
  count: number,
): Promise<unknown[]> {
  const nodes: unknown[] = [];
  for (let index = 0; index < count; index++) {
    const blob = await store.get(batchKey(ids.userId, ids.workflowId, ids.saveId, index));
    if (!blob) throw new HttpError(400, `${WORKFLOW_ERRORS.finalize}: batch ${index} is missing`);
    const parts: Buffer[] = [];
    for await (const part of blob.body) parts.push(part as Buffer);
    nodes.push(...(JSON.parse(Buffer.concat(parts).toString("utf8")) as unknown[]));
  }
  return nodes;
}

/** Removes every staged batch of a save (after its commit, or when the client gives up). */
export async function dropStagedSave(
  store: BlobStore,
  ids: { userId: string; workflowId: string; saveId: string },
): Promise<void> {
  const keys = await store.list(prefix(ids.userId, ids.workflowId, ids.saveId));
  if (keys.length > 0) await store.delete(keys);
}
