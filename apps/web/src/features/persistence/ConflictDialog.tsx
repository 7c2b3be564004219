import { Modal } from "../../ui/Modal.tsx";
import { useWorkspace } from "../workspace/store.ts";
import { conflictResolved } from "../workspace/sync-status.ts";
import { usePersistence } from "./context.tsx";

/** Another tab or device saved first: nothing is dropped unless the user says so. */
export function ConflictDialog() {
  const conflict = useWorkspace((state) => state.conflict);
  const persistence = usePersistence();
  if (!conflict) return null;
  const close = () => conflictResolved();
  return (
    <Modal label="Saved elsewhere" onClose={close}>
      <h2>This workflow was saved elsewhere</h2>
      <p>
        Another tab or device saved it at {new Date(conflict.theirUpdatedAt).toLocaleString()} since
        you opened it.
      </p>
      <div className="modal-actions">
        <button type="button" onClick={() => void persistence.reloadTheirs()}>
          Load their version
        </button>
        <button type="button" onClick={() => void persistence.save({ asCopy: true })}>
          Save mine as a copy
        </button>
        <button type="button" onClick={() => void persistence.save({ overwrite: true })}>
          Overwrite with mine
        </button>
      </div>
    </Modal>
  );
}
