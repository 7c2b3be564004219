import { type OpenedWorkflow, useWorkspace } from "./store.ts";

/* How the open workflow stands after edits, a journal restore or its deletion elsewhere. */

const set = useWorkspace.setState;

/** The document was edited since the last save. */
export const edited = () => {
  if (!useWorkspace.getState().dirty) set({ dirty: true });
};

/** The workflow was renamed (an unsaved edit). */
export const renamed = (name: string) => set({ name, dirty: true });

/** Unsaved work came back from the journal: the save state is left as it is. */
export const restored = (workflow: OpenedWorkflow) => set({ ...workflow, conflict: null });

/** The open workflow was deleted elsewhere: the canvas keeps it as new, unsaved work. */
export const detached = () => set({ workflowId: null, location: null, basedOn: null, dirty: true });
