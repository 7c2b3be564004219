import { Modal } from "../../ui/Modal.tsx";
import { useCostPrompt } from "./cost-prompt-store.ts";

/** Run / Cancel for a run estimated above the user's threshold (cost-prompt.ts). */
export function CostDialog() {
  const pending = useCostPrompt((state) => state.pending);
  if (!pending) return null;
  return (
    <Modal label="Confirm the run's cost" onClose={() => pending.answer(false)}>
      <h2>Run it?</h2>
      <p>{pending.message}</p>
      <p className="muted">
        Estimates use the providers' published prices; you can change when to be asked in
        Preferences.
      </p>
      <div className="modal-actions">
        <button type="button" onClick={() => pending.answer(true)}>
          Run
        </button>
        <button type="button" onClick={() => pending.answer(false)}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}
