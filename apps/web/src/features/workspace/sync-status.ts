import { useWorkspace } from "./store.ts";

/* Loading, connection and conflict actions on the workspace (their users load on demand). */

const set = useWorkspace.setState;

/** Another tab or device saved the workflow while it has unsaved edits here. */
export const conflictFound = (theirUpdatedAt: string) => set({ conflict: { theirUpdatedAt } });

/** The user dealt with (or dismissed) the conflict. */
export const conflictResolved = () => set({ conflict: null });

/** The browser went offline or back online. */
export const connectionChanged = (online: boolean) => set({ online });

/** The current step of a workflow's load, or null when it is done. */
export const loadingStep = (loading: string | null) => set({ loading });
