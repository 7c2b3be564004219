import { assembleChunks, assembleChunksPieces } from "@atelier/core";
import type { AppDb } from "../../db/client.ts";
import type { workflows } from "../../db/schema.ts";
import { readChunkRows } from "./stored-form.ts";

type JsonRow = Pick<
  typeof workflows.$inferSelect,
  "id" | "data" | "isChunked" | "chunkHead" | "updatedAt" | "resultsVersion"
>;

/** The cache's default budget: a handful of the largest (10 MB) workflows. */
const DEFAULT_BUDGET_BYTES = 64 * 1024 * 1024;

interface Entry {
  updatedAt: number;
  chunkHead: string | null;
  resultsVersion: number;
  json: Buffer;
}

/**
 * The assembled JSON of recently opened chunked workflows, least recently used out first.
 * Every save moves `updated_at` forward (saves are made against the exact current version),
 * so what is kept for (id, updated_at, head) is that version's data; one entry a workflow.
 */
export class WorkflowJsonCache {
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  constructor(readonly budgetBytes = DEFAULT_BUDGET_BYTES) {}

  get(row: JsonRow): Buffer | null {
    const entry = this.#entries.get(row.id);
    if (
      !entry ||
      entry.updatedAt !== row.updatedAt.getTime() ||
      entry.chunkHead !== row.chunkHead ||
      entry.resultsVersion !== row.resultsVersion
    )
      return null;
    this.#entries.delete(row.id);
    this.#entries.set(row.id, entry);
    return entry.json;
  }

  set(row: JsonRow, json: Buffer): void {
    this.#drop(row.id);
    if (json.length > this.budgetBytes / 2) return;
    this.#entries.set(row.id, {
      updatedAt: row.updatedAt.getTime(),
      chunkHead: row.chunkHead,
      resultsVersion: row.resultsVersion,
      json,
    });
    this.#bytes += json.length;
    for (const id of this.#entries.keys()) {
      if (this.#bytes <= this.budgetBytes) break;
      this.#drop(id);
    }
  }

  /** Bytes held (for tests). */
  get bytes(): number {
    return this.#bytes;
  }

  #drop(id: string): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#bytes -= entry.json.length;
    this.#entries.delete(id);
  }
}

/** Texts encoded as UTF-8 into one buffer, without first joining them into one string. */
function utf8Concat(pieces: readonly string[]): Buffer {
  const lengths = pieces.map((piece) => Buffer.byteLength(piece, "utf8"));
  const buffer = Buffer.allocUnsafe(lengths.reduce((total, length) => total + length, 0));
  let offset = 0;
  pieces.forEach((piece, at) => {
    buffer.write(piece, offset, "utf8");
    offset += lengths[at] as number;
  });
  return buffer;
}

/**
 * A row's saved workflow as UTF-8 JSON, the same value `readWorkflowData` gives: the `data`
 * column as stored (the server wrote it with JSON.stringify), or the chunk texts spliced
 * together; chunks that need the data-lost placeholder or predate node ids are assembled.
 * Bytes, because Node sends a Buffer of megabytes several times faster than the string.
 */
export async function readWorkflowJson(
  db: AppDb,
  row: JsonRow,
  cache?: WorkflowJsonCache,
): Promise<Buffer> {
  if (!row.isChunked) return Buffer.from(row.data || "null");
  const cached = cache?.get(row);
  if (cached) return cached;
  const chunks = await readChunkRows(db, row);
  const pieces = assembleChunksPieces(chunks) ?? [JSON.stringify(assembleChunks(chunks))];
  const json = utf8Concat(pieces);
  cache?.set(row, json);
  return json;
}
