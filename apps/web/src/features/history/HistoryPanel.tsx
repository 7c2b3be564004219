import type { VersionEntry } from "@atelier/core";
import { useCallback, useEffect, useState } from "react";
import { Modal } from "../../ui/Modal.tsx";
import { notify } from "../../ui/notify.ts";
import { failureMessage, versionActions } from "./version-actions.ts";
import { describeSummary } from "./version-diff.ts";

const when = (iso: string) => new Date(iso).toLocaleString();

/** The inline form that names a version (an empty name takes the name away). */
function NameForm({
  initial,
  onDone,
  onCancel,
}: {
  initial: string;
  onDone(name: string | null): Promise<void>;
  onCancel(): void;
}) {
  const [name, setName] = useState(initial);
  return (
    <form
      className="version-name-form"
      onSubmit={(event) => {
        event.preventDefault();
        void onDone(name.trim() || null);
      }}
    >
      <input
        aria-label="Version name"
        value={name}
        maxLength={100}
        placeholder="Before the big change"
        // biome-ignore lint/a11y/noAutofocus: the form opens on the user's click to type a name
        autoFocus
        onChange={(event) => setName(event.target.value)}
      />
      <button type="submit">Save name</button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

/**
 * The open cloud workflow's saved versions, newest first: when, who saved it, what changed;
 * each opens read-only (where it can be restored) and can be named so that it is kept.
 */
export function HistoryPanel({ workflowId, onClose }: { workflowId: string; onClose(): void }) {
  const [versions, setVersions] = useState<VersionEntry[] | null>(null);
  const [naming, setNaming] = useState<number | null>(null);
  const load = useCallback(async () => {
    try {
      setVersions(await versionActions.list(workflowId));
    } catch (error) {
      notify.error(failureMessage(error, "Could not load the history"));
      setVersions((shown) => shown ?? []);
    }
  }, [workflowId]);
  useEffect(() => void load(), [load]);

  const saveName = async (version: number, name: string | null) => {
    try {
      await versionActions.name(workflowId, version, name);
      setNaming(null);
      await load();
    } catch (error) {
      notify.error(failureMessage(error, "Could not name the version"));
    }
  };

  return (
    <Modal label="Version history" onClose={onClose}>
      <h2>History</h2>
      <p className="muted">
        Every save is kept for 7 days, then the last of each hour for 30 days, then the last of each
        day. Named versions are kept until you remove their name.
      </p>
      {versions === null ? (
        <p className="muted">Loading the history…</p>
      ) : versions.length === 0 ? (
        <p className="muted">No saved versions yet. Save the workflow to start its history.</p>
      ) : (
        <ol className="version-list" aria-label="Versions">
          {versions.map((version, index) => (
            <li key={version.id} className="version-row">
              <div className="version-title">
                <strong>Version {version.id}</strong>
                {index === 0 ? <span className="share-badge">Current</span> : null}
                {version.name ? <span className="version-label">{version.name}</span> : null}
              </div>
              <div className="muted">
                {when(version.created_at)}
                {version.author ? ` · ${version.author}` : ""}
                {version.restored_from ? ` · restored version ${version.restored_from}` : ""}
              </div>
              <div className="muted">{describeSummary(version.summary)}</div>
              {naming === version.id ? (
                <NameForm
                  initial={version.name ?? ""}
                  onDone={(name) => saveName(version.id, name)}
                  onCancel={() => setNaming(null)}
                />
              ) : (
                <div className="version-actions">
                  <button
                    type="button"
                    onClick={() => versionActions.preview(workflowId, version.id)}
                    title="Open this version read-only, with what differs outlined"
                  >
                    Preview
                  </button>
                  <button type="button" onClick={() => setNaming(version.id)}>
                    {version.name ? "Rename" : "Name this version"}
                  </button>
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
      <div className="modal-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
