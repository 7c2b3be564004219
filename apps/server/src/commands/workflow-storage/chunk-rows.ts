import { createHash } from "node:crypto";
import type { ChunkBody } from "@atelier/core";
import { and, eq, inArray } from "drizzle-orm";
import type { AppDb } from "../../db/client.ts";
import { workflowChunks } from "../../db/schema.ts";
import { faultPoint } from "./fault-point.ts";

/** A chunk body at its place among a workflow's rows. */
export interface PlacedChunk {
  index: number;
  body: ChunkBody;
  hash?: string;
}

const hashOf = (data: string) => createHash("sha1").update(data).digest("hex");

/** The workflow's chunk rows without their data: what a save compares against. */
export function chunkDirectory(tx: AppDb, workflowId: string) {
  return tx
    .select({
      chunkIndex: workflowChunks.chunkIndex,
      chunkType: workflowChunks.chunkType,
      contentHash: workflowChunks.contentHash,
      nodeIds: workflowChunks.nodeIds,
      sizeBytes: workflowChunks.sizeBytes,
    })
    .from(workflowChunks)
    .where(eq(workflowChunks.workflowId, workflowId));
}

/**
 * Deletes rows `remove` and writes `add`, inside the caller's transaction: one delete and
 * a multi-row insert in two halves (the crash tests kill the process between them).
 */
export async function rewriteChunks(
  tx: AppDb,
  workflowId: string,
  remove: readonly number[],
  add: readonly PlacedChunk[],
): Promise<number> {
  if (remove.length > 0) {
    await tx
      .delete(workflowChunks)
      .where(
        and(eq(workflowChunks.workflowId, workflowId), inArray(workflowChunks.chunkIndex, remove)),
      );
  }
  faultPoint("save:chunks-deleted");
  const rows = add.map(({ index, body, hash }) => ({
    workflowId,
    chunkIndex: index,
    chunkType: body.chunk_type,
    data: body.data,
    sizeBytes: body.size_bytes,
    contentHash: hash ?? hashOf(body.data),
    nodeIds: body.chunk_type === "nodes" ? body.nodeIds : null,
  }));
  const half = Math.ceil(rows.length / 2);
  if (half > 0) await tx.insert(workflowChunks).values(rows.slice(0, half));
  faultPoint("save:half-chunks-written");
  if (rows.length > half) await tx.insert(workflowChunks).values(rows.slice(half));
  return rows.length;
}

/**
 * Makes the workflow's chunks `bodies` (at indices 1…n), rewriting only the rows whose text
 * changed: re-saving a large workflow after a small edit writes a chunk, not megabytes.
 * Answers the number of rows written.
 */
export async function replaceChunks(
  tx: AppDb,
  workflowId: string,
  bodies: readonly ChunkBody[],
): Promise<number> {
  const existing = new Map(
    (await chunkDirectory(tx, workflowId)).map((row) => [row.chunkIndex, row]),
  );
  const remove: number[] = [];
  const add: PlacedChunk[] = [];
  bodies.forEach((body, position) => {
    const index = position + 1;
    const old = existing.get(index);
    existing.delete(index);
    const hash = hashOf(body.data);
    if (old?.chunkType === body.chunk_type && old.contentHash === hash) return;
    if (old) remove.push(index);
    add.push({ index, body, hash });
  });
  remove.push(...existing.keys());
  return rewriteChunks(tx, workflowId, remove, add);
}
