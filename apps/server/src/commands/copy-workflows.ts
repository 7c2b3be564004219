import type { AppDb } from "../db/client.ts";
import type { BlobStore } from "../storage/blob-store.ts";
import { copyWorkflow, deleteWorkflow } from "./workflow-storage/workflow-rows.ts";

/**
 * Copies the user's workflows into a folder (or "unfiled", `folderId` null), all or
 * nothing: when one copy fails, the copies already made are deleted and the error is
 * thrown on. The caller checked that every id is the user's (policy/access.ts).
 * Answers the new workflows' ids, in the order given.
 */
export async function copyWorkflowsTo(
  db: AppDb,
  store: BlobStore,
  userId: string,
  folderId: string | null,
  workflowIds: readonly string[],
): Promise<string[]> {
  const copies: string[] = [];
  try {
    for (const workflowId of workflowIds) {
      copies.push((await copyWorkflow(db, userId, workflowId, { folderId, fork: false })).id);
    }
  } catch (error) {
    for (const copyId of copies)
      await deleteWorkflow(db, store, userId, copyId).catch(() => undefined);
    throw error;
  }
  return copies;
}
