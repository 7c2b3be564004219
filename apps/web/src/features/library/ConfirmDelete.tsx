import { Modal } from "../../ui/Modal.tsx";

export interface PendingDelete {
  /** What is deleted: the dialog's words. */
  kind: "workflow" | "folder" | "token";
  name: string;
  run(): void;
}

const WORDS: Record<PendingDelete["kind"], { title: string; consequence: string; act: string }> = {
  workflow: {
    title: "Delete workflow?",
    consequence: "and its saved media will be deleted. This cannot be undone.",
    act: "Delete",
  },
  folder: {
    title: "Delete folder?",
    consequence: "will be deleted. Its workflows stay, unfiled.",
    act: "Delete",
  },
  token: {
    title: "Revoke API token?",
    consequence: "stops working at once: scripts that use it will be refused.",
    act: "Revoke",
  },
};

/** Deleting asks first: a workflow cannot be brought back; a folder's workflows stay. */
export function ConfirmDelete({ pending, onClose }: { pending: PendingDelete; onClose(): void }) {
  const words = WORDS[pending.kind];
  return (
    <Modal label={words.title} onClose={onClose}>
      <h2>{words.title}</h2>
      <p>
        “{pending.name}” {words.consequence}
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
          {words.act}
        </button>
      </div>
    </Modal>
  );
}
