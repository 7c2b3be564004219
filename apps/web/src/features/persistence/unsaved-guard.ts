import { create } from "zustand";
import { useWorkspace } from "../workspace/store.ts";

export type LeaveChoice = "save" | "discard" | "cancel";

/** The question on screen, if any: the workflow's name and how to answer. */
export const useLeavePrompt = create<{
  pending: { name: string; answer(choice: LeaveChoice): void } | null;
}>()(() => ({ pending: null }));

/** Whether the open workflow has edits a replacement would lose (or a save still on its way). */
export function hasUnsavedWork(): boolean {
  const { dirty, save, share } = useWorkspace.getState();
  // A view link's canvas is never saved: there is nothing of the visitor's to keep.
  if (share?.role === "view") return false;
  return dirty || save.state === "saving";
}

/**
 * Before anything replaces the open workflow (new, open, import, restore, sign-out, back or
 * forward): with unsaved edits, asks Save / Discard / Cancel. Resolves true when the caller
 * may go on: nothing to lose, the user discarded, or the save went through.
 */
export async function confirmLeave(save: () => Promise<void>): Promise<boolean> {
  if (!hasUnsavedWork()) return true;
  const { name } = useWorkspace.getState();
  const choice = await new Promise<LeaveChoice>((answer) =>
    useLeavePrompt.setState({ pending: { name, answer } }),
  );
  useLeavePrompt.setState({ pending: null });
  if (choice === "cancel") return false;
  if (choice === "discard") return true;
  await save();
  return !useWorkspace.getState().dirty && useWorkspace.getState().conflict === null;
}
