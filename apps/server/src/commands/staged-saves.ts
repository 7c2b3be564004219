import { type ItemText, WORKFLOW_ERRORS } from "@atelier/core";
import { HttpError } from "../http/errors.ts";
import type { BlobStore } from "../storage/blob-store.ts";

/**
 * Batches of a save in progress wait in storage, under the user's own prefix, until the
 * commit reads them back. Retrying a batch replaces it, so a retry never doubles nodes.
 * A batch is kept as its checked nodes' JSON texts, one a line after a line of their ids:
 * the commit chunks them as they are, without parsing megabytes again.
 */
const prefix = (userId: string, workflowId: string, saveId: string) =>
  `staging/${userId}/${workflowId}/${saveId}/`;

const batchKey = (userId: string, workflowId: string, saveId: string, index: number) =>
  `${prefix(userId, workflowId, saveId)}${String(index).padStart(6, "0")}.json`;

/** Stores (or replaces) batch `index` of a staged save: nodes already checked, as texts. */
export async function stageBatch(
  store: BlobStore,
  ids: { userId: string; workflowId: string; saveId: string },
  index: number,
  nodes: readonly ItemText[],
): Promise<void> {
  const key = batchKey(ids.userId, ids.workflowId, ids.saveId, index);
  // JSON.stringify never leaves a raw line break in its text, so lines split it safely.
  const text = [JSON.stringify(nodes.map((node) => node.id)), ...nodes.map((node) => node.text)];
  await store.delete([key]);
  await store.put(key, Buffer.from(text.join("\n")), "application/x-ndjson");
}

/** The node texts of batches 0…count-1 in order; a missing batch fails the commit. */
export async function readStagedNodes(
  store: BlobStore,
  ids: { userId: string; workflowId: string; saveId: string },
  count: number,
  byteLength: (text: string) => number,
): Promise<ItemText[]> {
  const read = async (index: number) => {
    const blob = await store.get(batchKey(ids.userId, ids.workflowId, ids.saveId, index));
    if (!blob) throw new HttpError(400, `${WORKFLOW_ERRORS.finalize}: batch ${index} is missing`);
    const parts: Buffer[] = [];
    for await (const part of blob.body) parts.push(part as Buffer);
    const [idLine = "[]", ...texts] = Buffer.concat(parts).toString("utf8").split("\n");
    const nodeIds = JSON.parse(idLine) as string[];
    if (nodeIds.length !== texts.length)
      throw new HttpError(400, `${WORKFLOW_ERRORS.finalize}: batch ${index} is unreadable`);
    return texts.map((text, at) => ({ id: nodeIds[at] as string, text, bytes: byteLength(text) }));
  };
  // Read a few at a time (storage may be remote); the first failing batch names the error.
  const nodes: ItemText[] = [];
  for (let start = 0; start < count; start += PARALLEL_READS) {
    const wave = Array.from({ length: Math.min(PARALLEL_READS, count - start) }, (_, at) =>
      read(start + at),
    );
    const batches = await Promise.allSettled(wave);
    const failed = batches.find((batch) => batch.status === "rejected");
    if (failed) throw failed.reason;
    for (const batch of batches) if (batch.status === "fulfilled") nodes.push(...batch.value);
  }
  return nodes;
}

const PARALLEL_READS = 8;

/** Removes every staged batch of a save (after its commit, or when the client gives up). */
export async function dropStagedSave(
  store: BlobStore,
  ids: { userId: string; workflowId: string; saveId: string },
): Promise<void> {
  const keys = await store.list(prefix(ids.userId, ids.workflowId, ids.saveId));
  if (keys.length > 0) await store.delete(keys);
}
