import { useMemo, useState } from "react";
import { Modal } from "../../ui/Modal.tsx";
import { notify } from "../../ui/notify.ts";
import { useDocumentStore } from "../document/context.tsx";
import { connectOptions } from "./connect-options.ts";

/** "Connect…": the wires one node could take or give, to make one from the keyboard. */
export function ConnectDialog({ nodeId, onClose }: { nodeId: string; onClose(): void }) {
  const store = useDocumentStore();
  const options = useMemo(() => connectOptions(store.getState(), nodeId), [store, nodeId]);
  const [filter, setFilter] = useState("");
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = options.filter((option) =>
    words.every((word) => option.label.toLowerCase().includes(word)),
  );
  return (
    <Modal label="Connect" onClose={onClose}>
      <h2>Connect</h2>
      {options.length === 0 ? (
        <p>No port of another node fits this node's ports.</p>
      ) : (
        <>
          <input
            className="connect-filter"
            aria-label="Filter connections"
            placeholder="Filter, e.g. prompt"
            value={filter}
            // biome-ignore lint/a11y/noAutofocus: the dialog opens to be typed into
            autoFocus
            onChange={(event) => setFilter(event.target.value)}
          />
          <ul className="connect-options" aria-label="Connections">
            {shown.map((option) => (
              <li key={option.key}>
                <button
                  type="button"
                  onClick={() => {
                    const verdict = store.getState().connect(option.connection);
                    if (verdict.ok) notify.info(`Connected ${option.label}`);
                    else if (verdict.message) notify.error(verdict.message);
                    onClose();
                  }}
                >
                  {option.label}
                </button>
              </li>
            ))}
          </ul>
          {shown.length === 0 ? <p>Nothing matches "{filter}".</p> : null}
        </>
      )}
      <div className="modal-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}
