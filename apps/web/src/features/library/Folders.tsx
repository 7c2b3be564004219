import { FOLDER_ERRORS, type Folder, validateFolderName } from "@atelier/core";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { notify } from "../../ui/notify.ts";
import { usePersistence } from "../persistence/context.tsx";
import { ConfirmDelete, type PendingDelete } from "./ConfirmDelete.tsx";
import {
  type FolderedWorkflow,
  failureMessage as failure,
  libraryActions,
  listFoldersAndWorkflows,
} from "./library-actions.ts";

/** A one-shot choice of folder ("Unfiled" is null). */
function FolderSelect(props: {
  label: string;
  placeholder: string;
  folders: Folder[];
  onPick(target: string | null): void;
}) {
  return (
    <select
      aria-label={props.label}
      value=""
      onChange={(event) =>
        props.onPick(event.target.value === "unfiled" ? null : event.target.value)
      }
    >
      <option value="">{props.placeholder}</option>
      <option value="unfiled">Unfiled</option>
      {props.folders.map((folder) => (
        <option key={folder.id} value={folder.id}>
          {folder.name}
        </option>
      ))}
    </select>
  );
}

/** Cloud workflows by folder: create, rename, delete folders; move, copy, fork, delete workflows. */
export function Folders({ onChanged, revision }: { onChanged(): void; revision: number }) {
  const persistence = usePersistence();
  const [folders, setFolders] = useState<Folder[]>([]);
  const [workflows, setWorkflows] = useState<FolderedWorkflow[]>([]);
  const [filter, setFilter] = useState<string | "all" | "unfiled">("all");
  const [draft, setDraft] = useState("");
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const [pendingDelete, setPendingDelete] = useState<PendingDelete | null>(null);
  /** The workflow whose actions menu is open. */
  const [menu, setMenu] = useState<string | null>(null);

  // The server picks the folder's workflows, so a folder of any size lists its own.
  const refresh = useCallback(async () => {
    try {
      const { folders: list, workflows: rows } = await listFoldersAndWorkflows(
        filter === "all" ? undefined : filter,
      );
      setFolders(list);
      setWorkflows(rows);
    } catch (error) {
      notify.error(failure(error, "Request timed out"));
    }
  }, [filter]);
  // Again after each save and open elsewhere (the revision), so new workflows show here too.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the revision is the trigger
  useEffect(() => void refresh(), [refresh, revision]);

  const run = async (action: () => Promise<unknown>, fallback: string) => {
    setMenu(null);
    try {
      await action();
      await refresh();
      onChanged();
    } catch (error) {
      notify.error(failure(error, fallback));
    }
  };

  const create = (event: FormEvent) => {
    event.preventDefault();
    const message = validateFolderName(draft);
    if (message) return notify.error(message);
    void run(async () => {
      await libraryActions.createFolder(draft.trim());
      setDraft("");
    }, FOLDER_ERRORS.create);
  };

  const rename = (event: FormEvent) => {
    event.preventDefault();
    if (!renaming) return;
    const message = validateFolderName(renaming.name);
    if (message) return notify.error(message);
    void run(async () => {
      await libraryActions.renameFolder(renaming.id, renaming.name.trim());
      setRenaming(null);
    }, FOLDER_ERRORS.update);
  };

  const shown = workflows.filter((workflow) =>
    filter === "all"
      ? true
      : filter === "unfiled"
        ? workflow.folderId === null
        : workflow.folderId === filter,
  );

  return (
    <section aria-label="Folders" className="folders">
      <h2>Folders</h2>
      <form onSubmit={create} className="inline-form">
        <input
          aria-label="New folder name"
          placeholder="New folder"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        <button type="submit">Create</button>
      </form>
      <ul>
        {[
          { id: "all", name: "All workflows" },
          { id: "unfiled", name: "Unfiled" },
        ].map((entry) => (
          <li key={entry.id}>
            <button
              type="button"
              aria-pressed={filter === entry.id}
              onClick={() => setFilter(entry.id)}
            >
              {entry.name}
            </button>
          </li>
        ))}
        {folders.map((folder) => (
          <li key={folder.id} className="folder-row">
            {renaming?.id === folder.id ? (
              <form onSubmit={rename} className="inline-form">
                <input
                  aria-label={`Rename ${folder.name}`}
                  value={renaming.name}
                  onChange={(event) => setRenaming({ id: folder.id, name: event.target.value })}
                />
                <button type="submit">OK</button>
              </form>
            ) : (
              <>
                <button
                  type="button"
                  title={folder.name}
                  aria-pressed={filter === folder.id}
                  onClick={() => setFilter(folder.id)}
                >
                  {folder.name} <small className="muted">({folder.workflow_count})</small>
                </button>
                <button
                  type="button"
                  aria-label={`Rename folder ${folder.name}`}
                  onClick={() => setRenaming({ id: folder.id, name: folder.name })}
                >
                  ✎
                </button>
                <button
                  type="button"
                  aria-label={`Delete folder ${folder.name}`}
                  onClick={() =>
                    setPendingDelete({
                      kind: "folder",
                      name: folder.name,
                      run: () =>
                        void run(
                          () => libraryActions.deleteFolder(folder.id),
                          FOLDER_ERRORS.delete,
                        ),
                    })
                  }
                >
                  ✕
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      <ul aria-label="Workflows in this folder">
        {shown.map((workflow) => (
          <li key={workflow.id} className="workflow-row">
            <button
              type="button"
              title={workflow.name}
              onClick={() => void persistence.replaceWith(() => persistence.open(workflow.id))}
            >
              {workflow.name}
            </button>
            {/* The row keeps its width for the name: its actions are one menu. */}
            <details
              className="row-menu"
              open={menu === workflow.id}
              onToggle={(event) => {
                const open = event.currentTarget.open;
                setMenu((shown) => (open ? workflow.id : shown === workflow.id ? null : shown));
              }}
            >
              <summary aria-label={`Actions for ${workflow.name}`} title="Move, copy, fork, delete">
                ⋯
              </summary>
              <div className="row-menu-items">
                <FolderSelect
                  label={`Move ${workflow.name} to`}
                  placeholder="Move to…"
                  folders={folders}
                  onPick={(target) =>
                    void run(
                      () => libraryActions.moveWorkflow(target, workflow.id),
                      FOLDER_ERRORS.move,
                    )
                  }
                />
                <FolderSelect
                  label={`Copy ${workflow.name} to`}
                  placeholder="Copy to…"
                  folders={folders}
                  onPick={(target) =>
                    void run(
                      () => libraryActions.copyWorkflow(target, workflow.id),
                      FOLDER_ERRORS.copy,
                    )
                  }
                />
                <button
                  type="button"
                  aria-label={`Fork ${workflow.name}`}
                  onClick={() =>
                    void run(() => libraryActions.fork(workflow.id), "Failed to fork workflow")
                  }
                >
                  Fork
                </button>
                <button
                  type="button"
                  aria-label={`Delete ${workflow.name}`}
                  onClick={() => {
                    setMenu(null);
                    setPendingDelete({
                      kind: "workflow",
                      name: workflow.name,
                      run: () =>
                        void run(async () => {
                          await libraryActions.deleteWorkflow(workflow.id);
                          persistence.forgetDeleted(workflow.id);
                        }, "Failed to delete workflow"),
                    });
                  }}
                >
                  Delete
                </button>
              </div>
            </details>
          </li>
        ))}
        {shown.length === 0 ? <li className="muted">No workflows here</li> : null}
      </ul>
      {pendingDelete ? (
        <ConfirmDelete pending={pendingDelete} onClose={() => setPendingDelete(null)} />
      ) : null}
    </section>
  );
}
