import { Modal } from "../../ui/Modal.tsx";
import { useLeavePrompt } from "./unsaved-guard.ts";

/** Save / Discard / Cancel before the open workflow is replaced (unsaved-guard.ts). */
export function LeaveDialog() {
  const pending = useLeavePrompt((state) => state.pending);
  if (!pending) return null;
  return (
    <Modal label="Unsaved changes" onClose={() => pending.answer("cancel")}>
      <h2>Save changes to “{pending.name}”?</h2>
      <p>Your edits are not saved yet. If you go on without saving, they are discarded.</p>
      <div className="modal-actions">
        <button type="button" onClick={() => pending.answer("save")}>
          Save
        </button>
        <button type="button" className="danger" onClick={() => pending.answer("discard")}>
          Discard changes
        </button>
        <button type="button" onClick={() => pending.answer("cancel")}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}
