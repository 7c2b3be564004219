import { randomBytes, randomUUID } from "node:crypto";
import { inArray } from "drizzle-orm";
import type { AppDb } from "../db/client.ts";
import { workflowMediaManifest } from "../db/schema.ts";
import type { BlobStore } from "../storage/blob-store.ts";

export { TEMPORARY_WORKFLOW_ID } from "@atelier/core";
export const ANONYMOUS_FOLDER = "anonymous";

/** `{owner}/{workflowId}/{timestamp}-{random}.{ext}`; the random part makes URLs unguessable. */
export function mediaPath(owner: string, workflowId: string, extension: string): string {
  return `${owner}/${workflowId}/${Date.now()}-${randomBytes(12).toString("hex")}.${extension}`;
}

export async function recordMedia(
  db: AppDb,
  entry: {
    workflowId: string;
    userId: string | null;
    filePath: string;
    fileSize: number;
    mimeType: string;
    nodeId?: string | null;
    outputKey?: string | null;
  },
) {
  const [row] = await db
    .insert(workflowMediaManifest)
    .values({
      id: randomUUID(),
      workflowId: entry.workflowId,
      userId: entry.userId,
      filePath: entry.filePath,
      fileSize: entry.fileSize,
      mimeType: entry.mimeType,
      nodeId: entry.nodeId ?? null,
      outputKey: entry.outputKey ?? null,
    })
    .returning();
  return row as typeof workflowMediaManifest.$inferSelect;
}

/** Deletes from storage each of `paths` that no manifest row names any more. */
export async function removeUnreferencedFiles(
  db: AppDb,
  store: BlobStore,
  paths: readonly string[],
) {
  if (paths.length === 0) return;
  const unique = [...new Set(paths)];
  const still = await db
    .select({ filePath: workflowMediaManifest.filePath })
    .from(workflowMediaManifest)
    .where(inArray(workflowMediaManifest.filePath, unique));
  const used = new Set(still.map((entry) => entry.filePath));
  await store.delete(unique.filter((path) => !used.has(path)));
}
