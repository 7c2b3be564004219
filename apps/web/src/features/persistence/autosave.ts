import { usePreferences } from "../preferences/store.ts";
import { useWorkspace } from "../workspace/store.ts";
import type { Persistence } from "./persistence.ts";

/**
 * Autosave (preferences `autoSaveEnabled`, `autoSaveInterval` in minutes): saves unsaved
 * edits on that rhythm while enabled. Returns the stop function.
 */
export function startAutosave(persistence: Persistence): () => void {
  let timer: ReturnType<typeof setInterval> | null = null;
  const schedule = () => {
    if (timer) clearInterval(timer);
    timer = null;
    const { autoSaveEnabled, autoSaveInterval } = usePreferences.getState();
    if (!autoSaveEnabled) return;
    timer = setInterval(() => {
      const { dirty, save, share } = useWorkspace.getState();
      if (dirty && save.state !== "saving" && share?.role !== "view") void persistence.save();
    }, Math.max(1, autoSaveInterval) * 60_000);
  };
  schedule();
  const unsubscribe = usePreferences.subscribe((state, before) => {
    if (
      state.autoSaveEnabled !== before.autoSaveEnabled ||
      state.autoSaveInterval !== before.autoSaveInterval
    )
      schedule();
  });
  return () => {
    unsubscribe();
    if (timer) clearInterval(timer);
  };
}
