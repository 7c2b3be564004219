import { LIMITS } from "@atelier/core";
import { ApiError } from "../../services/api.ts";
import { libraryApi } from "../../services/library-api.ts";
import type { LocalDb } from "../persistence/local-db.ts";
import { usePreferences } from "../preferences/store.ts";

/** A workflow as the library lists it. */
export interface LibraryEntry {
  id: string;
  name: string;
  when: number;
}

/** A cloud workflow and its folder ("Unfiled" is null). */
export interface FolderedWorkflow {
  id: string;
  name: string;
  folderId: string | null;
}

/** The server's message for a failed library request, else the fallback. */
export const failureMessage = (error: unknown, fallback: string): string =>
  error instanceof ApiError && error.message ? error.message : fallback;

/**
 * Earlier versions kept the recent list in IndexedDB, unpruned: its newest 10 move into the
 * preferences (SPEC §3) once, and the table is emptied.
 */
async function adoptOlderRecentList(db: LocalDb): Promise<void> {
  const older = await db.recent.orderBy("accessedAt").toArray();
  if (older.length === 0) return;
  const { rememberRecent } = usePreferences.getState();
  for (const entry of older) rememberRecent({ ...entry });
  await db.recent.clear();
}

/**
 * All workflows: the cloud's when signed in, else this browser's. Brings an older recent
 * list over first. IndexedDB loads here, on first use.
 */
export async function listAllWorkflows(signedIn: boolean): Promise<LibraryEntry[]> {
  const { localDb } = await import("../persistence/local-db.ts");
  await adoptOlderRecentList(localDb);
  if (signedIn) {
    const { workflows } = await libraryApi.listWorkflows().catch(() => ({ workflows: [] }));
    return workflows.map((workflow) => ({
      id: workflow.id,
      name: workflow.name,
      when: Date.parse(workflow.updated_at),
    }));
  }
  const local = await localDb.workflows
    .orderBy("updatedAt")
    .reverse()
    .filter((workflow) => workflow.id.startsWith("local-"))
    .limit(LIMITS.storage.workflowListLimit)
    .toArray();
  return local.map((workflow) => ({
    id: workflow.id,
    name: workflow.name,
    when: workflow.updatedAt,
  }));
}

/** The cloud's folders and its workflows with the folder each is in. */
export async function listFoldersAndWorkflows() {
  const [{ folders }, { workflows }] = await Promise.all([
    libraryApi.listFolders(),
    libraryApi.listWorkflows(),
  ]);
  return {
    folders,
    workflows: workflows.map(
      (row): FolderedWorkflow => ({ id: row.id, name: row.name, folderId: row.folder_id }),
    ),
  };
}

/** Folder and workflow commands of the cloud library. */
export const libraryActions = {
  createFolder: (name: string) => libraryApi.createFolder(name),
  renameFolder: (id: string, name: string) => libraryApi.renameFolder(id, name),
  deleteFolder: (id: string) => libraryApi.deleteFolder(id),
  moveWorkflow: (target: string | null, id: string) => libraryApi.moveWorkflows(target, [id]),
  copyWorkflow: (target: string | null, id: string) => libraryApi.copyWorkflows(target, [id]),
  fork: (id: string) => libraryApi.fork(id),
  deleteWorkflow: (id: string) => libraryApi.deleteWorkflow(id),
};
