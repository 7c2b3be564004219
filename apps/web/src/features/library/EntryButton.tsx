import type { ReactNode } from "react";
import { usePersistence } from "../persistence/context.tsx";
import { useWorkspace } from "../workspace/store.ts";
import type { LibraryEntry } from "./library-actions.ts";

/**
 * A workflow's row in a library list: its name (cut with an ellipsis, whole in the tooltip)
 * and a line of detail; a click opens it, asking first when there are unsaved edits.
 */
export function EntryButton({ entry, detail }: { entry: LibraryEntry; detail: ReactNode }) {
  const persistence = usePersistence();
  const current = useWorkspace((state) => state.workflowId === entry.id);
  return (
    <li>
      <button
        type="button"
        className="library-entry"
        title={entry.name}
        aria-current={current}
        onClick={() => void persistence.replaceWith(() => persistence.open(entry.id))}
      >
        <span className="entry-name">{entry.name}</span>
        <small className="muted">{detail}</small>
      </button>
    </li>
  );
}
