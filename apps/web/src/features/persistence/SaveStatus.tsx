import { useWorkspace } from "../workspace/store.ts";

/** "Saving… 60 %", then "Saved" (cleared after 1.5 s), or a dot for unsaved edits. */
export function SaveStatus() {
  const save = useWorkspace((state) => state.save);
  const dirty = useWorkspace((state) => state.dirty);
  const online = useWorkspace((state) => state.online);
  if (!online) {
    return (
      <span className="save-status error" role="status">
        Offline — changes kept on this device
      </span>
    );
  }
  if (save.state === "saving") {
    return (
      <span className="save-status" role="status">
        Saving… {save.progress} %
        <progress max={100} value={save.progress} />
      </span>
    );
  }
  if (save.state === "saved")
    return (
      <span className="save-status" role="status">
        Saved
      </span>
    );
  if (save.state === "error")
    return (
      <span className="save-status error" role="status">
        Not saved
      </span>
    );
  return dirty ? (
    <span
      className="dirty-dot"
      role="status"
      aria-label="Unsaved changes"
      title="Unsaved changes"
    />
  ) : null;
}
