import { create } from "zustand";
import type { SessionUser } from "../../services/api.ts";

export type SaveState = "idle" | "saving" | "saved" | "error";

export interface Conflict {
  /** The version on the server that another tab or device saved. */
  theirUpdatedAt: string;
}

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
  set(patch: Partial<Omit<WorkspaceState, "set">>): void;
}

export const useWorkspace = create<WorkspaceState>()((set) => ({
  workflowId: null,
  location: null,
  basedOn: null,
  name: "Untitled workflow",
  dirty: false,
  save: { state: "idle", progress: 0 },
  user: null,
  isAdmin: false,
  conflict: null,
  online: typeof navigator === "undefined" ? true : navigator.onLine,
  loading: null,
  set: (patch) => set(patch),
}));
