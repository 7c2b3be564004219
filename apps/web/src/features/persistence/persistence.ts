import {
  isLargeWorkflow,
  LIMITS,
  type SavedWorkflow,
  serializeWorkflow,
  utf8ByteLength,
  WORKFLOW_ERRORS,
  workflowTooLargeMessage,
} from "@atelier/core";
import { ApiError, api } from "../../services/api.ts";
import { authCache } from "../../services/auth-cache.ts";
import { notify } from "../canvas/notify.ts";
import { diffGraphs } from "../document/history.ts";
import type { DocumentStore } from "../document/store.ts";
import type { DocumentGraph } from "../document/types.ts";
import type { CloudRow } from "./cloud-save.ts";
import { local, serializeCurrent } from "./document-io.ts";
import { clearJournal, readJournal, writeExitJournal, writeJournal } from "./journal.ts";
import { followChanges } from "./live-sync.ts";
import { fetchWorkflow, keepDeviceCopy, LOAD_STEPS } from "./load-workflow.ts";
import { useWorkspace } from "./workspace-store.ts";

const JOURNAL_DELAY_MS = 1000;
const CLEAN_EXIT_KEY = "atelier.cleanExit";
const LAST_WORKFLOW_KEY = "atelier.lastWorkflow";
/** The load path (and its zod checks) arrives with the first open or import. */
const reader = () => import("./read-graph.ts");
/** Backups are written after a failed save and read from the library: loaded then. */
const backupStore = () => import("./backups.ts");

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

  const journalNow = async () => {
    journalTimer = null;
    const { workflowId, name, dirty } = workspace.getState();
    if (!dirty) return;
    await writeJournal({
      workflowId,
      name,
      data: await serializeCurrent(documents),
      writtenAt: Date.now(),
    });
  };

  // Any edit makes the workflow dirty and is journaled, throttled and off the drag path.
  documents.subscribe((state) => {
    if (state.nodes === previous.nodes && state.edges === previous.edges) return;
    const next = { nodes: state.nodes, edges: state.edges };
    const changed = loading
      ? false
      : diffGraphs("edit", previous, next).entry !== null ||
        state.nodes.length !== previous.nodes.length;
    previous = next;
    if (!changed) return;
    if (!workspace.getState().dirty) workspace.getState().set({ dirty: true });
    journalTimer ??= setTimeout(() => void journalNow(), JOURNAL_DELAY_MS);
  });

  const replaceDocument = (graph: DocumentGraph) => {
    loading = true;
    documents.getState().load(graph);
    previous = { nodes: documents.getState().nodes, edges: documents.getState().edges };
    loading = false;
  };

  const finishSave = (patch: Partial<ReturnType<typeof workspace.getState>>) => {
    workspace.getState().set({ ...patch, dirty: false, save: { state: "saved", progress: 100 } });
    if (patch.workflowId) localStorage.setItem(LAST_WORKFLOW_KEY, patch.workflowId);
    void clearJournal();
    setTimeout(() => {
      if (workspace.getState().save.state === "saved")
        workspace.getState().set({ save: { state: "idle", progress: 0 } });
    }, LIMITS.timing.saveProgressClearMs);
  };

  const progress = (value: number) =>
    workspace.getState().set({ save: { state: "saving", progress: Math.round(value) } });

  /** The document in saved form, or null (reported) when it is over SPEC's 10 MB. */
  const serializeChecked = async () => {
    const data = await serializeCurrent(documents);
    const bytes = utf8ByteLength(JSON.stringify(data));
    const tooLarge = workflowTooLargeMessage(bytes);
    if (!tooLarge) return { data, bytes };
    workspace.getState().set({ save: { state: "error", progress: 0 } });
    notify.error(tooLarge);
    return null;
  };

  /** From here on the open workflow is this cloud row (a failed save retries into it). */
  const adoptRow = (row: CloudRow) => {
    workspace.getState().set({
      workflowId: row.id,
      location: "cloud",
      basedOn: row.basedOn,
      conflict: null,
    });
    return row;
  };

  const commands = {
    /** Saves to the cloud when signed in, else to this browser. */
    async save(options: { overwrite?: boolean; asCopy?: boolean } = {}): Promise<void> {
      documents.getState().flushPending();
      const { nodes, edges } = documents.getState();
      if (isLargeWorkflow(nodes.length, edges.length))
        notify.info("Saving large workflow, this may take a moment...");
      const state = workspace.getState();
      if (state.user && !state.online) {
        workspace.getState().set({ save: { state: "error", progress: 0 } });
        notify.error("Cannot sync while offline");
        return;
      }
      progress(5);
      let data: SavedWorkflow | null = null;
      try {
        if (state.user) {
          // Cloud saving code loads on the first save, not with the editor.
          const { createEmptyRow, hasMediaToUpload, uploadEmbeddedMedia, writeCloudRow } =
            await import("./cloud-save.ts");
          const copy = options.asCopy || state.location !== "cloud" || !state.workflowId;
          const basedOn = options.overwrite
            ? (state.conflict?.theirUpdatedAt ?? state.basedOn)
            : state.basedOn;
          let row: CloudRow | null = copy
            ? null
            : { id: state.workflowId as string, basedOn: basedOn ?? "" };
          // Large embedded media goes to storage first; the saved data holds its URLs.
          if (hasMediaToUpload(documents)) {
            row ??= adoptRow(await createEmptyRow(state.name, await serializeCurrent(documents)));
            await uploadEmbeddedMedia(documents, row.id, (done) => progress(5 + 30 * done));
          }
          const checked = await serializeChecked();
          if (!checked) return;
          data = checked.data;
          if (!row && checked.bytes > LIMITS.chunking.batchAboveBytes)
            row = adoptRow(await createEmptyRow(state.name, data));
          const workflow = row
            ? await writeCloudRow(row, state.name, data, checked.bytes, (done) =>
                progress(40 + 50 * done),
              )
            : (await api.createWorkflow(state.name, data)).workflow;
          progress(90);
          await keepDeviceCopy(workflow.id, state.name, {
            ...data,
            metadata: { ...data.metadata, id: workflow.id },
          });
          finishSave({
            workflowId: workflow.id,
            location: "cloud",
            basedOn: workflow.updated_at,
            conflict: null,
          });
        } else {
          const checked = await serializeChecked();
          if (!checked) return;
          data = checked.data;
          const id =
            state.location === "local" && state.workflowId
              ? state.workflowId
              : `local-${crypto.randomUUID()}`;
          await (await local()).workflows.put({
            id,
            name: state.name,
            data: { ...data, metadata: { ...data.metadata, id } },
            updatedAt: Date.now(),
          });
          progress(90);
          finishSave({ workflowId: id, location: "local" });
        }
        await (await local()).recent.put({
          id: workspace.getState().workflowId as string,
          name: state.name,
          accessedAt: Date.now(),
        });
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) {
          workspace.getState().set({
            save: { state: "error", progress: 0 },
            conflict: { theirUpdatedAt: String(error.body.updated_at) },
          });
          return;
        }
        workspace.getState().set({ save: { state: "error", progress: 0 } });
        console.error("Save failed", error);
        // Nothing is lost: the work goes into an encrypted local backup.
        try {
          const latest = data ?? (await serializeCurrent(documents));
          const { createBackup } = await backupStore();
          await createBackup(await local(), state.workflowId, state.name, latest);
          notify.error("Failed to save workflow. An encrypted backup has been created locally.");
        } catch (backupError) {
          console.error("Backup failed", backupError);
          notify.error("Failed to save workflow and could not create backup.");
        }
      }
    },

    /** Opens a workflow from the cloud or this browser. */
    async open(id: string): Promise<void> {
      const step = (message: string | null) => workspace.getState().set({ loading: message });
      try {
        const found = await fetchWorkflow(id, step);
        step(LOAD_STEPS.check);
        const { graph, recovered } = (await reader()).readGraph(found.data);
        step(LOAD_STEPS.draw);
        replaceDocument(graph);
        workspace.getState().set({
          workflowId: id,
          location: found.location,
          basedOn: found.basedOn,
          name: found.name,
          dirty: false,
          conflict: null,
        });
        if (recovered) notify.info("Workflow was partially corrupted. Some data may be missing.");
        if (found.location === "cloud" && found.fromDevice)
          notify.info("The server is slow to answer: opened the copy kept on this device.");
        await (await local()).recent.put({ id, name: found.name, accessedAt: Date.now() });
        localStorage.setItem(LAST_WORKFLOW_KEY, id);
      } catch (error) {
        const message = error instanceof Error ? error.message : "";
        if (message === WORKFLOW_ERRORS.notInAnyStorage(id) || error instanceof ApiError) {
          notify.error(message);
        } else {
          console.error("Load failed", error);
          this.newWorkflow();
          notify.error("Workflow could not be loaded. Starting with an empty canvas.");
        }
      } finally {
        step(null);
      }
    },

    /** Takes the server's version after a conflict (our edits are dropped on request only). */
    async reloadTheirs(): Promise<void> {
      const id = workspace.getState().workflowId;
      if (id) await this.open(id);
    },

    /** Puts a backup back on the canvas; it stays unsaved until the user saves. */
    async restoreBackup(id: number): Promise<void> {
      try {
        const { readBackup } = await backupStore();
        const { backup, data } = await readBackup(await local(), id);
        replaceDocument((await reader()).readGraph(data).graph);
        workspace.getState().set({
          workflowId: backup.workflowId,
          location: backup.workflowId
            ? backup.workflowId.startsWith("local-")
              ? "local"
              : "cloud"
            : null,
          name: backup.name,
          dirty: true,
          conflict: null,
        });
        notify.info("Workflow restored from backup. Please save to persist changes.");
      } catch {
        notify.error("Failed to restore workflow from backup");
      }
    },

    async backups() {
      const { listBackups } = await backupStore();
      return listBackups(await local());
    },

    newWorkflow(): void {
      replaceDocument({ nodes: [], edges: [] });
      workspace.getState().set({
        workflowId: null,
        location: null,
        basedOn: null,
        name: "Untitled workflow",
        dirty: false,
        conflict: null,
      });
      void clearJournal();
      localStorage.removeItem(LAST_WORKFLOW_KEY);
    },

    /** Downloads the workflow as a .json file. */
    async exportFile(): Promise<void> {
      const data = await serializeCurrent(documents);
      const url = URL.createObjectURL(
        new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }),
      );
      const link = document.createElement("a");
      link.href = url;
      link.download = `${workspace.getState().name.replace(/[^\w.-]+/g, "-") || "workflow"}.json`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    },

    /** Opens a .json workflow file: dirty, with no id until saved. */
    async importFile(file: File): Promise<void> {
      try {
        const loaded = (await reader()).readImport(await file.text());
        if (loaded.recovered)
          notify.info("Workflow was partially corrupted. Some data may be missing.");
        replaceDocument(loaded.graph);
        const name =
          typeof loaded.name === "string" ? loaded.name : file.name.replace(/\.json$/i, "");
        workspace.getState().set({
          workflowId: null,
          location: null,
          basedOn: null,
          name,
          dirty: true,
          conflict: null,
        });
      } catch (error) {
        notify.error(error instanceof Error ? error.message : "Invalid workflow file format");
      }
    },

    /** On start: bring back the journal — silently after a normal close, asking after a crash. */
    async recover(): Promise<void> {
      const entry = await readJournal();
      const cleanExit = localStorage.getItem(CLEAN_EXIT_KEY) === "1";
      localStorage.removeItem(CLEAN_EXIT_KEY);
      const last = localStorage.getItem(LAST_WORKFLOW_KEY);
      if (!entry) {
        if (last) await this.open(last);
        return;
      }
      const { readGraph } = await reader();
      const restore = () => {
        replaceDocument(readGraph(entry.data).graph);
        workspace.getState().set({
          workflowId: entry.workflowId,
          location: entry.workflowId
            ? entry.workflowId.startsWith("local-")
              ? "local"
              : "cloud"
            : null,
          name: entry.name,
          dirty: true,
        });
      };
      if (cleanExit) {
        restore();
        return;
      }
      if (last) await this.open(last);
      notify.action("Unsaved changes from your last session were found.", "Restore", restore);
    },

    /** Writes the journal now and marks a normal close (page hide). */
    flushOnExit(): void {
      if (journalTimer) clearTimeout(journalTimer);
      journalTimer = null;
      const { dirty, workflowId, name } = workspace.getState();
      if (!dirty) return;
      const { nodes, edges } = documents.getState();
      const data = serializeWorkflow({ nodes, edges, metadata: { name, id: workflowId } });
      writeExitJournal({ workflowId, name, data, writtenAt: Date.now() });
      localStorage.setItem(CLEAN_EXIT_KEY, "1");
    },

    setName(name: string): void {
      workspace.getState().set({ name, dirty: true });
    },

    async refreshUser(): Promise<void> {
      const user = await authCache.session();
      workspace.getState().set({ user, isAdmin: user ? await authCache.isAdmin() : false });
    },
  };
  followChanges({ open: (id) => commands.open(id), save: () => commands.save() });
  return commands;
}

export type Persistence = ReturnType<typeof createPersistence>;
