import {
  assembleChunks,
  chunkWorkflow,
  type SavedWorkflow,
  saveStrategy,
  utf8ByteLength,
} from "@atelier/core";
import { asc, eq } from "drizzle-orm";
import type { AppDb } from "../db/client.ts";
import { workflowChunks, type workflows } from "../db/schema.ts";
import { faultPoint } from "./fault-point.ts";

export interface EncodedWorkflow {
  json: string;
  bytes: number;
  chunked: boolean;
}

/** The stored form of a workflow's data and whether it goes into chunks (over 5 MB). */
export function encodeWorkflowData(data: SavedWorkflow): EncodedWorkflow {
  const json = JSON.stringify(data);
  const bytes = utf8ByteLength(json);
  return { json, bytes, chunked: saveStrategy(bytes) === "chunked" };
}

/** Replaces a workflow's chunks inside the caller's transaction. */
export async function writeChunks(
  tx: AppDb,
  workflowId: string,
  data: SavedWorkflow,
  encoded: EncodedWorkflow,
) {
  await tx.delete(workflowChunks).where(eq(workflowChunks.workflowId, workflowId));
  faultPoint("save:chunks-deleted");
  if (!encoded.chunked) return 0;
  const chunks = chunkWorkflow(data, { workflowId });
  for (const [index, chunk] of chunks.entries()) {
    await tx.insert(workflowChunks).values({
      workflowId,
      chunkIndex: chunk.chunk_index,
      chunkType: chunk.chunk_type,
      data: chunk.data,
      sizeBytes: chunk.size_bytes,
    });
    if (index === Math.floor(chunks.length / 2)) faultPoint("save:half-chunks-written");
  }
  return chunks.length;
}

/** A row's saved workflow: its `data` column, or its chunks put back together. */
export async function readWorkflowData(
  db: AppDb,
  row: Pick<typeof workflows.$inferSelect, "id" | "data" | "isChunked">,
): Promise<SavedWorkflow | null> {
  if (!row.isChunked) return row.data ? (JSON.parse(row.data) as SavedWorkflow) : null;
  const chunks = await db
    .select()
    .from(workflowChunks)
    .where(eq(workflowChunks.workflowId, row.id))
    .orderBy(asc(workflowChunks.chunkIndex));
  return assembleChunks(
    chunks.map((chunk) => ({
      chunk_index: chunk.chunkIndex,
      chunk_type: chunk.chunkType,
      data: chunk.data,
    })),
  );
}
