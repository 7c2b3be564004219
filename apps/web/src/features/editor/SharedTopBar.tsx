import { lazyPart } from "../../ui/lazy-part.tsx";
import { usePersistence } from "../persistence/context.tsx";
import { SaveStatus } from "../persistence/SaveStatus.tsx";
import { signOut } from "../workspace/session-actions.ts";
import { useWorkspace } from "../workspace/store.ts";

const UserMenu = lazyPart(() =>
  import("../account/UserMenu.tsx").then((module) => module.UserMenu),
);

interface Props {
  onApiTokens(): void;
  onPreferences(): void;
  onShortcuts(): void;
  onSignIn(): void;
}

/**
 * The top bar of a workflow opened through a share link (loaded only then): its name, what
 * the link allows, saving for an edit link, export; the owner's sharing, runs and queue are
 * not this tab's.
 */
export function SharedTopBar({ onApiTokens, onPreferences, onShortcuts, onSignIn }: Props) {
  const name = useWorkspace((state) => state.name);
  const user = useWorkspace((state) => state.user);
  const isAdmin = useWorkspace((state) => state.isAdmin);
  const viewOnly = useWorkspace((state) => state.share?.role === "view");
  const persistence = usePersistence();
  return (
    <header className="top-bar">
      <h1 className="logo">Atelier</h1>
      <input
        className="workflow-name"
        aria-label="Workflow name"
        value={name}
        readOnly={viewOnly}
        onChange={(event) => persistence.setName(event.target.value)}
      />
      <span className="share-badge" title="You opened this workflow through a share link">
        {viewOnly ? "View only" : "Shared with you · can edit"}
      </span>
      {viewOnly ? null : <SaveStatus />}
      <div className="top-actions">
        {viewOnly ? null : (
          <button type="button" onClick={() => void persistence.save()} title="Save (Ctrl/⌘ + S)">
            Save
          </button>
        )}
        <button type="button" onClick={() => void persistence.exportFile()}>
          Export
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
}
