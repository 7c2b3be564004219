import { memo, useRef } from "react";
import { lazyPart } from "../../ui/lazy-part.tsx";
import { notify } from "../../ui/notify.ts";
import { RunAllCost } from "../costs/cost-parts.ts";
import { useDocument } from "../document/context.tsx";
import { usePersistence } from "../persistence/context.tsx";
import { SaveStatus } from "../persistence/SaveStatus.tsx";
import { useRunner } from "../runs/context.tsx";
import { signOut } from "../workspace/session-actions.ts";
import { useWorkspace } from "../workspace/store.ts";

// Only a signed-in user has the menu: it is not part of the first (signed-out) paint.
const UserMenu = lazyPart(() =>
  import("../account/UserMenu.tsx").then((module) => module.UserMenu),
);

interface Props {
  onApiTokens(): void;
  onRunHistory(): void;
  onHistory(): void;
  onPreferences(): void;
  onShortcuts(): void;
  onSignIn(): void;
  onShare(): void;
}

/** Name, save state, undo/redo, files, account (UX.md top bar). */
export const TopBar = memo(function TopBar({
  onApiTokens,
  onRunHistory,
  onHistory,
  onPreferences,
  onShortcuts,
  onSignIn,
  onShare,
}: Props) {
  const canUndo = useDocument((state) => state.past.length > 0);
  const canRedo = useDocument((state) => state.future.length > 0);
  const undo = useDocument((state) => state.undo);
  const redo = useDocument((state) => state.redo);
  const name = useWorkspace((state) => state.name);
  const user = useWorkspace((state) => state.user);
  const isAdmin = useWorkspace((state) => state.isAdmin);
  const cloudWorkflow = useWorkspace((state) => state.location === "cloud" && state.workflowId);
  const savedWorkflow = useWorkspace((state) => state.workflowId !== null);
  const persistence = usePersistence();
  const runner = useRunner();
  const fileInput = useRef<HTMLInputElement>(null);

  return (
    <header className="top-bar">
      <h1 className="logo">Atelier</h1>
      <input
        className="workflow-name"
        aria-label="Workflow name"
        value={name}
        onChange={(event) => persistence.setName(event.target.value)}
      />
      <SaveStatus />
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
        <button type="button" onClick={() => void persistence.save()} title="Save (Ctrl/⌘ + S)">
          Save
        </button>
        <button type="button" onClick={() => void persistence.exportFile()}>
          Export
        </button>
        <button
          type="button"
          onClick={() => void persistence.exportZip()}
          title="Export as .zip (with media), to open on another server"
        >
          Export .zip
        </button>
        <button type="button" onClick={() => fileInput.current?.click()}>
          Import
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json,.zip,application/zip"
          hidden
          aria-label="Import a workflow file"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void persistence.replaceWith(() => persistence.importFile(file));
            event.target.value = "";
          }}
        />
        <button
          type="button"
          onClick={() => void runner.runGraph(null)}
          title="Run every node in dependency order; unchanged nodes keep their results"
        >
          Run all
          <RunAllCost />
        </button>
        <button
          type="button"
          disabled={!cloudWorkflow}
          onClick={onShare}
          title={cloudWorkflow ? "Share links and app" : "Save to your account to share"}
        >
          Share
        </button>
        <button
          type="button"
          disabled={!cloudWorkflow}
          onClick={onRunHistory}
          title={
            cloudWorkflow
              ? "This workflow's runs: when, status, inputs and outputs"
              : "Save the workflow to your account to keep its run history"
          }
        >
          Runs
        </button>
        <button
          type="button"
          disabled={!savedWorkflow}
          onClick={onHistory}
          title={
            savedWorkflow
              ? "Saved versions: preview, name and restore them"
              : "Save the workflow to start its history"
          }
        >
          History
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
        {user ? (
          <UserMenu
            email={user.email}
            isAdmin={isAdmin}
            onApiTokens={onApiTokens}
            onSignOut={() => void persistence.replaceWith(() => signOut())}
          />
        ) : (
          <button type="button" onClick={onSignIn}>
            Sign in
          </button>
        )}
      </div>
    </header>
  );
});
