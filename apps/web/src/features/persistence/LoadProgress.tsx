import { useWorkspace } from "../workspace/store.ts";

/** The current step while a workflow loads, over the canvas. */
export function LoadProgress() {
  const step = useWorkspace((state) => state.loading);
  if (!step) return null;
  return (
    <div className="load-progress" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {step}
    </div>
  );
}
