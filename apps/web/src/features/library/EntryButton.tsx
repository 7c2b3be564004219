import { isThumbnail } from "@atelier/core";
import type { ReactNode } from "react";
import { mediaSrc } from "../nodes/viewers/safe-url.ts";
import { usePersistence } from "../persistence/context.tsx";
import { useWorkspace } from "../workspace/store.ts";
import type { LibraryEntry } from "./library-actions.ts";

/** The canvas as it was saved, through the URL allow-list; an empty frame without one. */
function Thumbnail({ src }: { src: string | null | undefined }) {
  // Only the small inline pictures saved with workflows, never an address to load.
  const safe = isThumbnail(src) ? mediaSrc(src, "image") : null;
  return safe ? (
    <img className="entry-thumb" src={safe} alt="" width={48} height={30} loading="lazy" />
  ) : (
    <span className="entry-thumb" aria-hidden="true" />
  );
}

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
        className={entry.thumbnail === undefined ? "library-entry" : "library-entry pictured"}
        title={entry.name}
        aria-current={current}
        onClick={() => void persistence.replaceWith(() => persistence.open(entry.id))}
      >
        {entry.thumbnail === undefined ? null : <Thumbnail src={entry.thumbnail} />}
        <span className="entry-name">{entry.name}</span>
        <small className="muted">{detail}</small>
      </button>
    </li>
  );
}
