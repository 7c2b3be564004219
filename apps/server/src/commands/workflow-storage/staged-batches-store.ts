import { type ItemText, WORKFLOW_ERRORS } from "@atelier/core";
import { InvalidInputError, NotFoundError } from "../../domain/errors.ts";
import type { BlobStore } from "../../storage/blob-store.ts";

/** A save in progress: whose, of which workflow; `via` is the share link it comes through. */
export type SaveIds = { userId: string; workflowId: string; saveId: string; via?: string };

/**
 * Batches of a save in progress wait in storage, under the user's own prefix, until the
 * commit reads them back. Retrying a batch replaces it, so a retry never doubles nodes.
 * A batch is kept as its checked nodes' JSON texts, one a line after a line of their ids:
 * the commit chunks them as they are, without parsing megabytes again.
 */
const prefix = (userId: string, workflowId: string, saveId: string) =>
  `staging/${safePart(userId)}/${safePart(workflowId)}/${safePart(saveId)}/`;

/**
 * An id as one folder name: ids are UUIDs and the like, so anything else (a `..` or a `/`
 * from a crafted URL, which could name another user's folder) is a workflow not found.
 */
function safePart(id: string): string {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(id)) throw new NotFoundError(WORKFLOW_ERRORS.notFound);
  return id;
}

const batchKey = (userId: string, workflowId: string, saveId: string, index: number) =>
  `${prefix(userId, workflowId, saveId)}${String(index).padStart(6, "0")}.json`;

/** Each node's JSON text with its size in UTF-8 bytes: the form batches are staged in. */
export function nodeTexts(nodes: readonly { id: string }[]): ItemText[] {
  return nodes.map((node) => {
    const text = JSON.stringify(node);
    return { id: node.id, text, bytes: Buffer.byteLength(text) };
  });
}

/** Stores (or replaces) batch `index` of a staged save in the store: nodes already checked. */
export async function stageBatch(
  store: BlobStore,
  ids: SaveIds,
  index: number,
  nodes: readonly ItemText[],
): Promise<void> {
  const key = batchKey(ids.userId, ids.workflowId, ids.saveId, index);
  // JSON.stringify never leaves a raw line break in its text, so lines split it safely.
  const text = [JSON.stringify(nodes.map((node) => node.id))];
  for (const node of nodes) text.push(node.text);
  const body = Buffer.from(text.join("\n"));
  // Stores refuse to overwrite: only a retried batch (the put failed) pays for a delete.
  await store.put(key, body, NDJSON).catch(async () => {
    await store.delete([key]);
    await store.put(key, body, NDJSON);
  });
}

const NDJSON = "application/x-ndjson";

/** The node texts of the given batches from the store, in order; a missing one fails. */
export async function readStagedBatches(
  store: BlobStore,
  ids: SaveIds,
  indexes: readonly number[],
): Promise<Map<number, ItemText[]>> {
  const read = async (index: number) => {
    const blob = await store.get(batchKey(ids.userId, ids.workflowId, ids.saveId, index));
    if (!blob) throw missingBatch(index);
    const parts: Buffer[] = [];
    for await (const part of blob.body) parts.push(part as Buffer);
    const [idLine, ...texts] = utf8Lines(Buffer.concat(parts));
    const nodeIds = JSON.parse(idLine?.text ?? "[]") as string[];
    if (nodeIds.length !== texts.length)
      throw new InvalidInputError(`${WORKFLOW_ERRORS.finalize}: batch ${index} is unreadable`);
    return texts.map((line, at) => ({ id: nodeIds[at] as string, ...line }));
  };
  // Read a few at a time (storage may be remote); the first failing batch names the error.
  const batches = new Map<number, ItemText[]>();
  for (let start = 0; start < indexes.length; start += PARALLEL_READS) {
    const wave = indexes.slice(start, start + PARALLEL_READS);
    const results = await Promise.allSettled(wave.map(read));
    const failed = results.find((batch) => batch.status === "rejected");
    if (failed) throw failed.reason;
    results.forEach((batch, at) => {
      if (batch.status === "fulfilled") batches.set(wave[at] as number, batch.value);
    });
  }
  return batches;
}

export const missingBatch = (index: number) =>
  new InvalidInputError(`${WORKFLOW_ERRORS.finalize}: batch ${index} is missing`);

const PARALLEL_READS = 8;

/**
 * The lines of UTF-8 text with their sizes in bytes, read off the buffer (a 0x0A byte is
 * never part of a longer character), so megabytes of texts are not measured again.
 */
export function utf8Lines(buffer: Buffer): { text: string; bytes: number }[] {
  const lines: { text: string; bytes: number }[] = [];
  for (let start = 0; start <= buffer.length; ) {
    const found = buffer.indexOf(10, start);
    const end = found === -1 ? buffer.length : found;
    lines.push({ text: buffer.toString("utf8", start, end), bytes: end - start });
    start = end + 1;
  }
  return lines;
}

/** Removes every staged batch of a save (after its commit, or when the client gives up). */
export async function dropStagedSave(store: BlobStore, ids: SaveIds): Promise<void> {
  const keys = await store.list(prefix(ids.userId, ids.workflowId, ids.saveId));
  if (keys.length > 0) await store.delete(keys);
}

/**
 * Saves in progress whose workflow was found to be the user's, so the later requests of a
 * save skip that lookup (the commit's write is owner-scoped all the same). Keys start with
 * the user and end with the share link used, so neither another user's request nor the
 * same user's without that link finds an entry; a lapsed one costs a lookup.
 */
export class OwnedSaves {
  readonly #until = new Map<string, number>();

  constructor(
    readonly ttlMs = 60_000,
    readonly maxEntries = 10_000,
  ) {}

  /** Runs `lookup` (which throws when the workflow is not the user's) unless known lately. */
  async check(ids: SaveIds, lookup: () => Promise<unknown>, now = Date.now()): Promise<void> {
    const key = `${saveKeyOf(ids)}|${ids.via ?? ""}`;
    if ((this.#until.get(key) ?? 0) > now) return;
    await lookup();
    if (this.#until.size >= this.maxEntries) this.#evict(now);
    this.#until.set(key, now + this.ttlMs);
  }

  get size(): number {
    return this.#until.size;
  }

  forget(ids: SaveIds): void {
    this.#until.delete(`${saveKeyOf(ids)}|${ids.via ?? ""}`);
  }

  /** Drops lapsed entries, then the oldest, to make room. */
  #evict(now: number): void {
    for (const [key, until] of this.#until) if (until <= now) this.#until.delete(key);
    for (const key of this.#until.keys()) {
      if (this.#until.size < this.maxEntries * 0.9) break;
      this.#until.delete(key);
    }
  }
}

/** One save's key in memory: unambiguous, as user and save ids never hold a `/`. */
export const saveKeyOf = (ids: SaveIds) => `${ids.userId}/${ids.workflowId}/${ids.saveId}`;
