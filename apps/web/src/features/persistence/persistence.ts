import { authCache } from "../../services/auth-cache.ts";
import { isEdited } from "../document/history.ts";
import type { DocumentStore } from "../document/store.ts";
import type { DocumentGraph } from "../document/types.ts";
import { usePreferences } from "../preferences/store.ts";
import { detached, edited, renamed } from "../workspace/document-status.ts";
import { opened, sessionChanged, useWorkspace } from "../workspace/store.ts";
import { LAST_WORKFLOW_KEY, local, locationOf, serializeCurrentText } from "./document-io.ts";
import type { journalOnExit } from "./exit-journal.ts";
import type { OpenOptions, OpenOutcome, OpenTarget } from "./open-workflow.ts";
import type { SaveOptions } from "./save.ts";
import { confirmLeave } from "./unsaved-guard.ts";

const JOURNAL_DELAY_MS = 1000;
/**
 * How long a save waits for the editor's first "who is signed in?" before it goes ahead with
 * what the tab knows: a server that does not answer must not hold the save forever.
 */
export const SESSION_WAIT_MS = 5000;
const deviceVersions = () => import("./device-versions.ts");
/** The journal's writes: the first comes a second after the first edit. */
const journal = () => import("./journal.ts");
/** Backups are written after a failed save and read from the library: loaded then. */
const backupStore = () => import("./backups.ts");
/** Opening a workflow, a file or a backup arrives with the first open (or idle warm-up). */
const opener = () => import("./open-workflow.ts");
/** Saving and export arrive with the first save (or idle warm-up), not the first paint. */
const saver = () => import("./save.ts");
/** The portable .zip (fflate included) arrives with the first zip export or import. */
const portable = () => import("./portable-export.ts");
const portableImport = () => import("./portable-import.ts");
/** Realtime and connectivity follow-up: nothing to do before the first paint. */
const liveSync = () => import("./live-sync.ts");

/**
 * Saving, loading and the never-lose-an-edit journal, as commands over the document store.
 * Signed out, workflows live in IndexedDB; signed in, on the server.
 */
export function createPersistence(documents: DocumentStore) {
  const workspace = useWorkspace;
  let journalTimer: ReturnType<typeof setTimeout> | null = null;
  let previous: DocumentGraph = {
    nodes: documents.getState().nodes,
    edges: documents.getState().edges,
  };
  let loading = false;
  let deferrals = 0;
  // The page-hide journal write must be synchronous, so the serializer it uses is loaded
  // once there is something unsaved (it is not part of the first paint).
  let journalNowOnExit: typeof journalOnExit | null = null;
  let fetchingSerializer = false;
  const loadSerializer = () => {
    if (journalNowOnExit || fetchingSerializer) return;
    fetchingSerializer = true;
    import("./exit-journal.ts").then(
      (module) => {
        journalNowOnExit = module.journalOnExit;
      },
      // Offline before it arrived: the next change tries again.
      () => {
        fetchingSerializer = false;
      },
    );
  };

  const journalNow = async () => {
    journalTimer = null;
    // Mid-drag positions are not worth a 5 MB write on the drag path: wait for the drop
    // (10 s at most, should a drag never report its end). Nor are edits a save under way
    // is sending: once it lands they are saved (nothing left to journal); if it fails,
    // they are journaled then. Serializing and writing 5 MB made that save wait.
    const busy = documents.getState().isDragging() || workspace.getState().save.state === "saving";
    if (busy && deferrals < 10) {
      deferrals++;
      journalTimer = setTimeout(() => void journalNow(), JOURNAL_DELAY_MS);
      return;
    }
    deferrals = 0;
    const { workflowId, name, basedOn, dirty } = workspace.getState();
    if (!dirty) return;
    // Dated when the document is read, not when written: a page-hide journal of later edits,
    // written while this one serializes, is then the newer of the two.
    const writtenAt = Date.now();
    // Kept as the worker's text: parsing 5 MB here and cloning the object into IndexedDB
    // cost the main thread ~200 ms a second after every edit.
    const text = await serializeCurrentText(documents);
    // A save that began or ended while this serialized makes it stale: written now, it would
    // bring back on reload the id and base version from before that save (a second row, a
    // lost conflict check). Still unsaved after it: journaled again, with what is true then.
    const now = workspace.getState();
    if (
      now.workflowId !== workflowId ||
      now.basedOn !== basedOn ||
      !now.dirty ||
      now.save.state === "saving"
    ) {
      if (now.dirty) journalTimer ??= setTimeout(() => void journalNow(), JOURNAL_DELAY_MS);
      return;
    }
    await (await journal()).writeJournal({
      workflowId,
      name,
      basedOn,
      text,
      writtenAt,
    });
    // A workflow kept only on this device has its journal as its version history.
    if (locationOf(workflowId) === "local")
      await (await deviceVersions()).recordSnapshot(workflowId, JSON.parse(text), {
        saved: false,
      });
  };

  // Any edit makes the workflow dirty and is journaled, throttled and off the drag path.
  const journalEdits = (state: ReturnType<DocumentStore["getState"]>) => {
    if (state.nodes === previous.nodes && state.edges === previous.edges) return;
    const next = { nodes: state.nodes, edges: state.edges };
    // Already dirty with a journal write coming: that write takes this change too, so the
    // diff (a walk of every node, on every drag move) can be skipped.
    if (!loading && journalTimer && workspace.getState().dirty) {
      previous = next;
      return;
    }
    // An edit of more than 20 nodes (select all, move) is not undoable but is an edit.
    const changed = !loading && isEdited(previous, next);
    previous = next;
    if (!changed) return;
    edited();
    loadSerializer();
    journalTimer ??= setTimeout(() => void journalNow(), JOURNAL_DELAY_MS);
  };

  // The editor's first session check while it is under way (refreshUser): saves wait for it.
  let firstSessionCheck: Promise<void> | null = null;
  let sessionChecked = false;

  const replaceDocument = (graph: DocumentGraph) => {
    loading = true;
    documents.getState().load(graph);
    previous = { nodes: documents.getState().nodes, edges: documents.getState().edges };
    loading = false;
  };

  const commands = {
    /** Saves to the cloud when signed in, else to this browser (code loaded on first use). */
    async save(options: SaveOptions = {}): Promise<void> {
      // Right after a reload the tab does not know yet who is signed in: a save then would
      // go to this browser as a new workflow instead of the account's (e2e persistence).
      if (firstSessionCheck) await firstSessionCheck;
      await (await saver()).saveWorkflow(documents, options);
    },

    /** Opens a workflow from the cloud or this browser. */
    async open(id: string, options?: OpenOptions): Promise<OpenOutcome> {
      return (await opener()).openWorkflow(opening, id, options);
    },

    /** Takes the server's version after a conflict (our edits are dropped on request only). */
    async reloadTheirs(): Promise<void> {
      const id = workspace.getState().workflowId;
      if (id) await commands.open(id);
    },

    /** Puts a backup back on the canvas; it stays unsaved until the user saves. */
    async restoreBackup(id: number): Promise<void> {
      await (await opener()).restoreWorkflowBackup(opening, id);
    },

    async backups() {
      const { listBackups } = await backupStore();
      return listBackups(await local());
    },

    /**
     * Asks before the open workflow is replaced, when it has unsaved edits: true when the
     * caller may go on (unsaved-guard.ts). Every user action that replaces it asks first.
     */
    leave(): Promise<boolean> {
      return confirmLeave(() => commands.save());
    },

    /** Runs a user action that replaces the open workflow, once `leave` allows it. */
    async replaceWith(action: () => unknown): Promise<void> {
      if (await commands.leave()) await action();
    },

    newWorkflow(): void {
      // Edits the user chose to discard stay in the journal until new edits replace them:
      // it is never cleared while it holds work not saved anywhere.
      const discarded = workspace.getState().dirty;
      replaceDocument({ nodes: [], edges: [] });
      opened({
        workflowId: null,
        location: null,
        basedOn: null,
        name: "Untitled workflow",
        dirty: false,
      });
      if (!discarded) void journal().then((module) => module.clearJournal());
      localStorage.removeItem(LAST_WORKFLOW_KEY);
    },

    /**
     * After a workflow was deleted: off the recent list, and if it is the open one, the
     * canvas keeps it as unsaved work (the next save makes a new workflow).
     */
    forgetDeleted(id: string): void {
      usePreferences.getState().forgetRecent(id);
      if (localStorage.getItem(LAST_WORKFLOW_KEY) === id)
        localStorage.removeItem(LAST_WORKFLOW_KEY);
      if (workspace.getState().workflowId !== id) return;
      detached();
      journalTimer ??= setTimeout(() => void journalNow(), JOURNAL_DELAY_MS);
    },

    /** Downloads the workflow as a .json file. */
    async exportFile(): Promise<void> {
      await (await saver()).exportWorkflow(documents);
    },

    /** Downloads the workflow as a .zip with every media file it references. */
    async exportZip(): Promise<void> {
      await (await portable()).exportPortableZip(documents);
    },

    /** Opens a .json workflow file, or a .zip export with its media: dirty, no id until saved. */
    async importFile(file: File): Promise<void> {
      if (/\.zip$/i.test(file.name) || /zip/i.test(file.type)) {
        await (await portableImport()).importPortableZip(opening, file);
        return;
      }
      await (await opener()).importWorkflowFile(opening, file);
    },

    /**
     * On start: the workflow the address names (`target`), else the last one opened, and the
     * journal (open-workflow.ts).
     */
    async recover(target?: string): Promise<OpenOutcome> {
      const loads = documents.getState().loads;
      return (await opener()).recoverSession(opening, target, loads);
    },

    /** Writes the journal now and marks a normal close (page hide). */
    flushOnExit(): void {
      const { dirty, workflowId, name, basedOn } = workspace.getState();
      if (!dirty) return;
      // Without the serializer (edits in the page's last moment, or offline before it
      // came), the journal write that was coming is made now, as far as the page lets it.
      if (!journalNowOnExit) {
        if (journalTimer) {
          clearTimeout(journalTimer);
          void journalNow();
        }
        return;
      }
      if (journalTimer) clearTimeout(journalTimer);
      journalTimer = null;
      const { nodes, edges } = documents.getState();
      journalNowOnExit(
        { nodes, edges, metadata: { name, id: workflowId } },
        { workflowId, name, basedOn, writtenAt: Date.now() },
      );
    },

    setName(name: string): void {
      renamed(name);
    },

    async refreshUser(): Promise<void> {
      const check = (async () => {
        const user = await authCache.session();
        sessionChanged(user, user ? await authCache.isAdmin() : false);
      })();
      if (!sessionChecked) {
        sessionChecked = true;
        let timer: ReturnType<typeof setTimeout> | undefined;
        firstSessionCheck = Promise.race([
          check.catch(() => undefined),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, SESSION_WAIT_MS);
          }),
        ]).then(() => {
          clearTimeout(timer);
          firstSessionCheck = null;
        });
      }
      await check;
    },
  };
  const opening: OpenTarget = {
    replaceDocument,
    newWorkflow: () => commands.newWorkflow(),
    open: (id, options) => commands.open(id, options),
    loads: () => documents.getState().loads,
  };
  /**
   * Follows the document and the workspace (journal, live sync): from the editor's effect, so
   * an editor whose first render is thrown away (a suspended mount) leaves nothing behind.
   * Returns the stop.
   */
  const start = (): (() => void) => {
    let stopLive: (() => void) | undefined;
    let stopped = false;
    previous = { nodes: documents.getState().nodes, edges: documents.getState().edges };
    const stopJournal = documents.subscribe(journalEdits);
    // Unsaved by a rename too: the page-hide writer must be there for it.
    const stopDirty = workspace.subscribe(({ dirty }) => dirty && loadSerializer());
    void liveSync().then(({ followChanges }) => {
      if (!stopped) stopLive = followChanges(commands);
    });
    return () => {
      stopped = true;
      stopJournal();
      stopDirty();
      stopLive?.();
    };
  };
  return { ...commands, start };
}

export type Persistence = ReturnType<typeof createPersistence>;
