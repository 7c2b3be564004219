import { PROVENANCE_SIDECAR_SUFFIX } from "@atelier/core";
import { and, eq } from "drizzle-orm";
import type { AppDb } from "../db/client.ts";
import { workflowMediaManifest } from "../db/schema.ts";
import { NotFoundError } from "../domain/errors.ts";
import type { BlobStore } from "../storage/blob-store.ts";
import { removeUnreferencedFiles } from "../storage/media-manifest.ts";

export type MediaRow = typeof workflowMediaManifest.$inferSelect;

/** The user's uploaded and generated files of one workflow (manifest rows). */
export function listWorkflowMedia(db: AppDb, userId: string, workflowId: string) {
  return db
    .select()
    .from(workflowMediaManifest)
    .where(
      and(
        eq(workflowMediaManifest.userId, userId),
        eq(workflowMediaManifest.workflowId, workflowId),
      ),
    );
}

/** One of the user's manifest rows (files they uploaded or generated); another's is 404. */
export async function getOwnMediaRow(db: AppDb, userId: string, id: string): Promise<MediaRow> {
  const [row] = await db
    .select()
    .from(workflowMediaManifest)
    .where(and(eq(workflowMediaManifest.id, id), eq(workflowMediaManifest.userId, userId)));
  if (!row) throw new NotFoundError("Media not found");
  return row;
}

/**
 * A stored file by its unguessable path (public, SPEC §7) with its recorded type; 404 when
 * no manifest row names it or storage no longer has it. `<path>.atelier.json` is the
 * file's provenance sidecar (video, audio, 3D results): served while the file is.
 */
export async function readMediaFile(db: AppDb, store: BlobStore, path: string) {
  const sidecar = path.endsWith(PROVENANCE_SIDECAR_SUFFIX);
  const filePath = sidecar ? path.slice(0, -PROVENANCE_SIDECAR_SUFFIX.length) : path;
  const [row] = await db
    .select({ mimeType: workflowMediaManifest.mimeType })
    .from(workflowMediaManifest)
    .where(eq(workflowMediaManifest.filePath, filePath))
    .limit(1);
  if (!row) throw new NotFoundError("Not found");
  const blob = await store.get(path);
  if (!blob) throw new NotFoundError("Not found");
  return { mimeType: sidecar ? "application/json" : row.mimeType, blob };
}

/**
 * Removes one of the user's manifest rows (still owner-scoped), and the file once no row
 * names it any more; 404 "Media not found" when it is gone meanwhile.
 */
export async function deleteMedia(db: AppDb, store: BlobStore, userId: string, id: string) {
  const [removed] = await db
    .delete(workflowMediaManifest)
    .where(and(eq(workflowMediaManifest.id, id), eq(workflowMediaManifest.userId, userId)))
    .returning({ filePath: workflowMediaManifest.filePath });
  if (!removed) throw new NotFoundError("Media not found");
  await removeUnreferencedFiles(db, store, [removed.filePath]);
}
