import { Modal } from "../../ui/Modal.tsx";

export interface PendingDelete {
  /** "workflow" or "folder": the dialog's words. */
  kind: "workflow" | "folder";
  name: string;
  run(): void;
}

/** Deleting asks first: a workflow cannot be brought back; a folder's workflows stay. */
export function ConfirmDelete({ pending, onClose }: { pending: PendingDelete; onClose(): void }) {
  const title = pending.kind === "workflow" ? "Delete workflow?" : "Delete folder?";
  return (
    <Modal label={title} onClose={onClose}>
      <h2>{title}</h2>
      <p>
        “{pending.name}”{" "}
        {pending.kind === "workflow"
          ? "and its saved media will be deleted. This cannot be undone."
          : "will be deleted. Its workflows stay, unfiled."}
      </p>
      <div className="modal-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="danger"
          onClick={() => {
            onClose();
            pending.run();
          }}
        >
          Delete
        </button>
      </div>
    </Modal>
  );
}
