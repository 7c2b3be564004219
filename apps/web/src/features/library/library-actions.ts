import { LIMITS } from "@atelier/core";
import { ApiError } from "../../services/api.ts";
import { libraryApi } from "../../services/library-api.ts";
import type { LocalDb } from "../persistence/local-db.ts";
import { usePreferences } from "../preferences/store.ts";

/** Where a workflow lives: only here, only in the account, or in both (its device copy). */
export type Whereabouts = "device" | "cloud" | "both";

/** A workflow as the library lists it. */
export interface LibraryEntry {
  id: string;
  name: string;
  when: number;
  where?: Whereabouts;
  /** With `where: "both"`: whether this device's copy is as new as the account's. */
  inSync?: boolean;
  /**
   * A picture of its canvas, drawn when it was saved (unchecked: the row checks it); null
   * when it has none, absent where lists show none (recent).
   */
  thumbnail?: string | null | undefined;
}

/** What the library asks for: a search, an order, a page. */
export interface LibraryQuery {
  q?: string;
  sort?: "modified" | "name";
  offset?: number;
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

const byQuery = (query: LibraryQuery) => {
  const wanted = query.q?.trim().toLowerCase() ?? "";
  return (entry: { name: string }) => entry.name.toLowerCase().includes(wanted);
};
const ordered = (entries: LibraryEntry[], sort: LibraryQuery["sort"]) =>
  entries.sort((a, b) =>
    sort === "name"
      ? a.name.localeCompare(b.name, undefined, { sensitivity: "base" })
      : b.when - a.when,
  );

/**
 * All workflows, one entry each, with where each lives: signed in, the account's (a page at
 * a time, searched and ordered by the server) and, on the first page, those only on this
 * device; signed out, this device's. Brings an older recent list over first. IndexedDB
 * loads here, on first use.
 */
export async function listAllWorkflows(
  signedIn: boolean,
  query: LibraryQuery = {},
): Promise<{ entries: LibraryEntry[]; nextOffset: number | null }> {
  const { localDb } = await import("../persistence/local-db.ts");
  await adoptOlderRecentList(localDb);
  const kept = await localDb.workflows.toArray();
  const deviceOnly = kept
    .filter((workflow) => workflow.id.startsWith("local-"))
    .filter(byQuery(query))
    .map(
      (workflow): LibraryEntry => ({
        id: workflow.id,
        name: workflow.name,
        when: workflow.updatedAt,
        where: "device",
        thumbnail: workflow.data?.metadata.thumbnail ?? null,
      }),
    );
  if (!signedIn)
    return {
      entries: ordered(deviceOnly, query.sort).slice(0, LIMITS.storage.workflowListLimit),
      nextOffset: null,
    };
  const copies = new Map(kept.map((workflow) => [workflow.id, workflow.updatedAt]));
  const page = await libraryApi
    .listWorkflows({ q: query.q, sort: query.sort, offset: query.offset })
    .catch(() => ({ workflows: [], nextOffset: null }));
  const cloud = page.workflows.map((workflow): LibraryEntry => {
    const when = Date.parse(workflow.updated_at);
    const copy = copies.get(workflow.id);
    const entry = { id: workflow.id, name: workflow.name, when, thumbnail: workflow.thumbnail_url };
    return copy === undefined
      ? { ...entry, where: "cloud" }
      : { ...entry, where: "both", inSync: copy >= when };
  });
  // The device's own workflows come with the first page.
  const entries = query.offset ? cloud : ordered([...cloud, ...deviceOnly], query.sort);
  return { entries, nextOffset: page.nextOffset };
}

/** The cloud's folders and its workflows with the folder each is in. */
export async function listFoldersAndWorkflows(folderId?: string) {
  const [{ folders }, { workflows }] = await Promise.all([
    libraryApi.listFolders(),
    libraryApi.listWorkflows(folderId ? { folderId } : {}),
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
