import { create } from "zustand";
import type { SessionUser } from "../../services/api.ts";

export type SaveState = "idle" | "saving" | "saved" | "error";

export interface Conflict {
  /** The version on the server that another tab or device saved. */
  theirUpdatedAt: string;
}

/** Where the open workflow lives and what it is called. */
export interface OpenedWorkflow {
  workflowId: string | null;
  location: "local" | "cloud" | null;
  basedOn: string | null;
  name: string;
  dirty: boolean;
}

/** What a finished save tells about the workflow it wrote. */
export type SavedWorkflowPatch = Partial<
  Pick<WorkspaceState, "workflowId" | "location" | "basedOn" | "conflict">
>;

/** Session state of the open workflow: where it lives, whether it has unsaved edits. */
export interface WorkspaceState {
  workflowId: string | null;
  location: "local" | "cloud" | null;
  /** Cloud only: the `updated_at` our edits started from. */
  basedOn: string | null;
  name: string;
  dirty: boolean;
  save: { state: SaveState; progress: number };
  user: SessionUser | null;
  /** From the admin-status call (cached 5 minutes). */
  isAdmin: boolean;
  conflict: Conflict | null;
  online: boolean;
  /** The current step while a workflow loads, or null. */
  loading: string | null;
  /** The share link this tab opened the workflow through (view: read-only), or null. */
  share: { role: "view" | "edit"; token: string } | null;
  /** A saved version shown read-only (`/w/:id?v=…`), or null. */
  previewing: number | null;
}

const IDLE = { state: "idle", progress: 0 } as const;

/**
 * The workspace store. Read it with `useWorkspace(selector)` or `getState()`; change it only
 * through the named actions: below, `document-status.ts` (edits of the open workflow),
 * `save-status.ts` (the save command's) and `sync-status.ts` (loading, connection and
 * conflicts).
 */
export const useWorkspace = create<WorkspaceState>()(() => ({
  workflowId: null,
  location: null,
  basedOn: null,
  name: "Untitled workflow",
  dirty: false,
  save: IDLE,
  user: null,
  isAdmin: false,
  conflict: null,
  online: typeof navigator === "undefined" ? true : navigator.onLine,
  loading: null,
  share: null,
  previewing: null,
}));

/** Nothing on the canvas may change: a view link's workflow, or a saved version shown. */
export const isViewOnly = (state: WorkspaceState) =>
  state.share?.role === "view" || state.previewing !== null;

const set = useWorkspace.setState;

/** The session is known: a signed-in user (and whether an admin), or null when signed out. */
export const sessionChanged = (user: SessionUser | null, isAdmin: boolean) =>
  set({ user, isAdmin });

/** A saved version is shown read-only from now on (null: no longer). */
export const previewChanged = (previewing: number | null) => set({ previewing });

/** The tab works through a share link from now on (set before the workflow opens). */
export const sharedLinkOpened = (share: WorkspaceState["share"]) => set({ share });

/** A workflow (or an empty canvas) is now open, clean or not, with no save under way. */
export const opened = (workflow: OpenedWorkflow) =>
  set({ ...workflow, conflict: null, save: IDLE });
