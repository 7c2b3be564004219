import { LIMITS } from "@atelier/core";
import { useCallback, useEffect, useState } from "react";
import { lazyPart } from "../../ui/lazy-part.tsx";
import { useIdleRevision } from "../../ui/use-idle-revision.ts";
import { usePersistence } from "../persistence/context.tsx";
import { usePreferences } from "../preferences/store.ts";
import { useWorkspace } from "../workspace/store.ts";
import { AllWorkflows } from "./AllWorkflows.tsx";
import { EntryButton } from "./EntryButton.tsx";
import { Folders } from "./Folders.tsx";
import type { LibraryEntry as Entry } from "./library-actions.ts";

// The gallery and its templates arrive when it is first opened.
const TemplateGallery = lazyPart(() =>
  import("../templates/TemplateGallery.tsx").then((module) => module.TemplateGallery),
);

/** Recent workflows (3 shown, 10 kept) and all workflows: this browser's or the cloud's. */
export function Library() {
  const persistence = usePersistence();
  const user = useWorkspace((state) => state.user);
  const currentId = useWorkspace((state) => state.workflowId);
  const saveState = useWorkspace((state) => state.save.state);
  const recentWorkflows = usePreferences((state) => state.recentWorkflows);
  const recent = recentWorkflows.map((entry) => ({
    id: entry.id,
    name: entry.name,
    when: entry.accessedAt,
  }));
  const [showAllRecent, setShowAllRecent] = useState(false);
  const [templates, setTemplates] = useState(false);
  const [backups, setBackups] = useState<Entry[]>([]);

  const refresh = useCallback(async () => {
    const kept = await persistence.backups();
    setBackups(
      kept.map((backup) => ({ id: String(backup.id), name: backup.name, when: backup.createdAt })),
    );
  }, [persistence]);

  // Refresh after each save ends and when another workflow opens (the lists below follow
  // too), once the browser is idle: an open draws its canvas first. Not as a save starts:
  // lists asked for then showed nothing new and competed with the save's own request.
  const revision = useIdleRevision(`${saveState === "saving"}:${currentId}`);
  // What the lists below were last asked to show.
  const [listed, setListed] = useState(0);
  useEffect(() => {
    // A save still under way refreshes when it ends (its state changes again).
    if (useWorkspace.getState().save.state === "saving") return;
    void refresh();
    setListed(revision);
  }, [refresh, revision]);

  const shownRecent = showAllRecent ? recent : recent.slice(0, LIMITS.recent.shownByDefault);
  const item = (entry: Entry) => (
    <EntryButton key={entry.id} entry={entry} detail={new Date(entry.when).toLocaleDateString()} />
  );

  return (
    <nav className="library" aria-label="Library">
      <button
        type="button"
        onClick={() => void persistence.replaceWith(() => persistence.newWorkflow())}
      >
        New workflow
      </button>
      <button type="button" onClick={() => setTemplates(true)}>
        New from template…
      </button>
      {templates ? (
        <TemplateGallery persistence={persistence} onClose={() => setTemplates(false)} />
      ) : null}
      <section aria-label="Recent workflows">
        <h2>Recent</h2>
        {recent.length === 0 ? (
          <p className="muted">Nothing opened yet</p>
        ) : (
          <ul>{shownRecent.map(item)}</ul>
        )}
        {recent.length > LIMITS.recent.shownByDefault ? (
          <button type="button" className="link" onClick={() => setShowAllRecent((open) => !open)}>
            {showAllRecent ? "Show fewer" : `Show all ${recent.length}`}
          </button>
        ) : null}
      </section>
      {backups.length > 0 ? (
        <section aria-label="Backups">
          <h2>Recover a backup</h2>
          <ul>
            {backups.map((backup) => (
              <li key={backup.id}>
                <button
                  type="button"
                  onClick={() =>
                    void persistence.replaceWith(() => persistence.restoreBackup(Number(backup.id)))
                  }
                >
                  <span>{backup.name}</span>
                  <small className="muted">{new Date(backup.when).toLocaleTimeString()}</small>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <AllWorkflows revision={listed} />
      {user ? <Folders onChanged={() => void refresh()} revision={listed} /> : null}
    </nav>
  );
}
