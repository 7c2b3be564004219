import { type SavedWorkflowPatch, useWorkspace } from "./store.ts";

/* The save command's actions on the workspace (loaded with it, on the first save). */

const set = useWorkspace.setState;

/** A save is under way, `percent` done. */
export const saveProgress = (percent: number) =>
  set({ save: { state: "saving", progress: Math.round(percent) } });

/** A save finished; `dirty` tells whether edits made meanwhile remain unsaved. */
export const saveFinished = (patch: SavedWorkflowPatch, dirty: boolean) =>
  set({ ...patch, dirty, save: { state: "saved", progress: 100 } });

/** The "saved" mark goes back to idle (unless another save started meanwhile). */
export const saveSettled = () => {
  if (useWorkspace.getState().save.state === "saved") set({ save: { state: "idle", progress: 0 } });
};

/** A save failed (or was refused). */
export const saveFailed = () => set({ save: { state: "error", progress: 0 } });

/** From now on the open workflow is this cloud row. */
export const cloudRowAdopted = (workflowId: string, basedOn: string | null) =>
  set({ workflowId, location: "cloud", basedOn, conflict: null });

/** A save was refused: another version is on the server. */
export const saveConflicted = (theirUpdatedAt: string) =>
  set({ save: { state: "error", progress: 0 }, conflict: { theirUpdatedAt } });
