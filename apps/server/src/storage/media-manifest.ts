import { randomBytes, randomUUID } from "node:crypto";
import { formatMediaRef, PROVENANCE_SIDECAR_SUFFIX } from "@atelier/core";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { AppDb } from "../db/client.ts";
import { workflowMediaManifest, workflows } from "../db/schema.ts";
import type { BlobStore } from "./blob-store.ts";

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
  const manifestRow = row as typeof workflowMediaManifest.$inferSelect;
  const ref = mediaRefOf(manifestRow);
  // The row's refs follow its manifest (SPEC §3); updated_at stays: this is not an edit.
  if (ref && entry.userId)
    await db
      .update(workflows)
      .set({ mediaRefs: sql`array_append(${workflows.mediaRefs}, ${ref}::text)` })
      .where(and(eq(workflows.id, entry.workflowId), eq(workflows.userId, entry.userId)));
  return manifestRow;
}

type ManifestRow = typeof workflowMediaManifest.$inferSelect;

/**
 * A manifest row as SPEC §3's media ref, "id|path|nodeId|outputKey|type"; null for a file
 * that belongs to no node output (or whose parts a ref cannot hold).
 */
export function mediaRefOf(row: ManifestRow): string | null {
  if (!row.nodeId || !row.outputKey) return null;
  try {
    return formatMediaRef([row.id, row.filePath, row.nodeId, row.outputKey, row.mimeType]);
  } catch {
    return null;
  }
}

/** Sets a workflow's media refs from its manifest rows, oldest first (after a copy). */
export async function refreshMediaRefs(db: AppDb, workflowId: string): Promise<void> {
  const files = await db
    .select()
    .from(workflowMediaManifest)
    .where(eq(workflowMediaManifest.workflowId, workflowId))
    .orderBy(asc(workflowMediaManifest.uploadedAt));
  const refs = files.map(mediaRefOf).filter((ref): ref is string => ref !== null);
  await db.update(workflows).set({ mediaRefs: refs }).where(eq(workflows.id, workflowId));
}

/** Deletes from storage each of `paths` that no manifest row names any more, with its sidecar. */
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
  await store.delete(
    unique
      .filter((path) => !used.has(path))
      .flatMap((path) => [path, `${path}${PROVENANCE_SIDECAR_SUFFIX}`]),
  );
}
