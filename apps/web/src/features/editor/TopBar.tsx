import { memo } from "react";
import { notify } from "../canvas/notify.ts";
import { useDocument } from "../document/context.tsx";

interface Props {
  onPreferences(): void;
  onShortcuts(): void;
}

/** Name, undo/redo, and the entry points to preferences and shortcuts. */
export const TopBar = memo(function TopBar({ onPreferences, onShortcuts }: Props) {
  const canUndo = useDocument((state) => state.past.length > 0);
  const canRedo = useDocument((state) => state.future.length > 0);
  const undo = useDocument((state) => state.undo);
  const redo = useDocument((state) => state.redo);
  return (
    <header className="top-bar">
      <span className="logo">Atelier</span>
      <span className="workflow-name">Untitled workflow</span>
      <div className="top-actions">
        <button
          type="button"
          disabled={!canUndo}
          aria-label="Undo"
          title="Undo (Ctrl/⌘ + Z)"
          onClick={() => {
            const label = undo();
            if (label) notify.info(`Undid: ${label}`);
          }}
        >
          ↶
        </button>
        <button
          type="button"
          disabled={!canRedo}
          aria-label="Redo"
          title="Redo (Ctrl/⌘ + Shift + Z)"
          onClick={() => {
            const label = redo();
            if (label) notify.info(`Redid: ${label}`);
          }}
        >
          ↷
        </button>
        <button
          type="button"
          onClick={onShortcuts}
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
        >
          ?
        </button>
        <button type="button" onClick={onPreferences}>
          Preferences
        </button>
      </div>
    </header>
  );
});
