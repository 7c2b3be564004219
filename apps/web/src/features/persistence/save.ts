import {
  isLargeWorkflow,
  LIMITS,
  type SavedWorkflow,
  workflowTooLargeMessage,
} from "@atelier/core";
import { ApiError, api } from "../../services/api.ts";
import { notify } from "../../ui/notify.ts";
import { isEdited } from "../document/history.ts";
import type { DocumentStore } from "../document/store.ts";
import type { DocumentGraph } from "../document/types.ts";
import { usePreferences } from "../preferences/store.ts";
import {
  cloudRowAdopted,
  saveConflicted,
  saveFailed,
  saveFinished,
  saveProgress,
  saveSettled,
} from "../workspace/save-status.ts";
import { type SavedWorkflowPatch, useWorkspace } from "../workspace/store.ts";
import type { CloudRow } from "./cloud-save.ts";
import { forgetDeviceVersions, recordSnapshot } from "./device-versions.ts";
import { LAST_WORKFLOW_KEY, local, serializeCurrent } from "./document-io.ts";
import { clearJournal } from "./journal.ts";
import { keepSavedCopyWhenIdle } from "./load-workflow.ts";
import { deviceCopyBlob, formSnapshot, savedBytes, savedForm } from "./saved-form.ts";
import { withThumbnail } from "./thumbnail.ts";

/*
 * Saving and exporting: loaded with the first save (or when the browser is idle, for
 * offline use), not with the editor's first paint (DESIGN §7).
 */

export interface SaveOptions {
  overwrite?: boolean;
  asCopy?: boolean;
}

const backupStore = () => import("./backups.ts");

/** The document as it was serialized for the save under way: edits after it are unsaved. */
let savedGraph: DocumentGraph | null = null;

const finishSave = (documents: DocumentStore, patch: SavedWorkflowPatch) => {
  const { nodes, edges } = documents.getState();
  // Edits made while the save was in flight are not in it: they stay unsaved and journaled.
  const dirty = savedGraph !== null && isEdited(savedGraph, { nodes, edges });
  saveFinished(patch, dirty);
  if (patch.workflowId) localStorage.setItem(LAST_WORKFLOW_KEY, patch.workflowId);
  if (!dirty) void clearJournal();
  setTimeout(() => {
    saveSettled();
  }, LIMITS.timing.saveProgressClearMs);
};

const progress = (value: number) => saveProgress(value);

/** The document in saved form with its thumbnail, or null (reported) when over SPEC's 10 MB. */
const serializeChecked = async (documents: DocumentStore) => {
  const { nodes, edges } = documents.getState();
  savedGraph = { nodes, edges };
  const { name, workflowId } = useWorkspace.getState();
  // Only nodes and wires changed since the last save are serialized (saved-form.ts).
  const form = await savedForm(nodes, edges, { name, id: workflowId });
  // The library's picture of the canvas goes with the data (metadata.thumbnail).
  const data = withThumbnail(form.data, nodes, edges);
  const bytes = savedBytes(data, form);
  const tooLarge = workflowTooLargeMessage(bytes);
  if (!tooLarge) return { data, bytes, form };
  saveFailed();
  notify.error(tooLarge);
  return null;
};

/** From here on the open workflow is this cloud row (a failed save retries into it). */
const adoptRow = (row: CloudRow) => {
  cloudRowAdopted(row.id, row.basedOn);
  return row;
};

/** Another version is on the server: nothing is sent until the user picks (ConflictDialog). */
const askAboutConflict = (theirUpdatedAt: string) => saveConflicted(theirUpdatedAt);

/** Saves to the cloud when signed in, else to this browser. */
export async function saveWorkflow(
  documents: DocumentStore,
  options: SaveOptions = {},
): Promise<void> {
  documents.getState().flushPending();
  if (useWorkspace.getState().share?.role === "view") {
    notify.info("This link is view-only: changes are not saved.");
    return;
  }
  const { nodes, edges } = documents.getState();
  if (isLargeWorkflow(nodes.length, edges.length))
    notify.info("Saving large workflow, this may take a moment...");
  const state = useWorkspace.getState();
  if (state.user && !state.online) {
    saveFailed();
    notify.error("Cannot sync while offline");
    return;
  }
  progress(5);
  let data: SavedWorkflow | null = null;
  try {
    if (state.user) {
      // Cloud saving code loads on the first save, not with the editor.
      const {
        createEmptyRow,
        hasMediaToUpload,
        serverVersion,
        uploadEmbeddedMedia,
        writeCloudRow,
      } = await import("./cloud-save.ts");
      const copy = options.asCopy || state.location !== "cloud" || !state.workflowId;
      const basedOn = options.overwrite
        ? (state.conflict?.theirUpdatedAt ?? state.basedOn)
        : state.basedOn;
      if (!copy && !basedOn) {
        // The version these edits started from is unknown (a journal of an earlier version):
        // sending it blind could overwrite another save, so the user chooses, as in a conflict.
        const theirs = await serverVersion(state.workflowId as string);
        if (theirs) return askAboutConflict(theirs);
      }
      // A cloud workflow the server no longer has is saved as a new one.
      let row: CloudRow | null =
        copy || !basedOn ? null : { id: state.workflowId as string, basedOn };
      // Large embedded media goes to storage first; the saved data holds its URLs.
      if (hasMediaToUpload(documents)) {
        row ??= adoptRow(await createEmptyRow(state.name, await serializeCurrent(documents)));
        await uploadEmbeddedMedia(documents, row.id, (done) => progress(5 + 30 * done));
      }
      const checked = await serializeChecked(documents);
      if (!checked) return;
      data = checked.data;
      const { form } = checked;
      if (!row && checked.bytes > LIMITS.chunking.batchAboveBytes)
        row = adoptRow(await createEmptyRow(state.name, data));
      const workflow = row
        ? await writeCloudRow(
            row,
            state.name,
            data,
            checked.bytes,
            (done) => progress(40 + 50 * done),
            formSnapshot(data, form),
          )
        : (await api.createWorkflow(state.name, data)).workflow;
      progress(90);
      const kept = { ...data, metadata: { ...data.metadata, id: workflow.id } };
      // The device copy follows when the browser is idle, made from the texts of this save.
      void keepSavedCopyWhenIdle(workflow.id, state.name, kept, () =>
        deviceCopyBlob(workflow.id, state.name, kept, form),
      );
      // A workflow kept only on this device now lives in the account (with a device copy):
      // one workflow, so the library and the recent list show it once.
      if (state.location === "local" && state.workflowId && !options.asCopy) {
        await (await local()).workflows.delete(state.workflowId);
        await forgetDeviceVersions(state.workflowId);
        usePreferences.getState().forgetRecent(state.workflowId);
      }
      finishSave(documents, {
        workflowId: workflow.id,
        location: "cloud",
        basedOn: workflow.updated_at,
        conflict: null,
      });
    } else {
      const checked = await serializeChecked(documents);
      if (!checked) return;
      data = checked.data;
      const id =
        state.location === "local" && state.workflowId
          ? state.workflowId
          : `local-${crypto.randomUUID()}`;
      const saved = { ...data, metadata: { ...data.metadata, id } };
      await (await local()).workflows.put({
        id,
        name: state.name,
        data: saved,
        updatedAt: Date.now(),
      });
      // Every save on the device is a version of it too.
      await recordSnapshot(id, saved, { saved: true });
      progress(90);
      finishSave(documents, { workflowId: id, location: "local" });
    }
    usePreferences.getState().rememberRecent({
      id: useWorkspace.getState().workflowId as string,
      name: state.name,
      accessedAt: Date.now(),
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      askAboutConflict(String(error.body.updated_at));
      return;
    }
    saveFailed();
    console.error("Save failed", error);
    // Nothing is lost: the work goes into an encrypted local backup.
    try {
      const latest = data ?? (await serializeCurrent(documents));
      const { createBackup } = await backupStore();
      const { workflowId, name, basedOn } = state;
      await createBackup(await local(), { workflowId, name, basedOn }, latest);
      notify.error("Failed to save workflow. An encrypted backup has been created locally.");
    } catch (backupError) {
      console.error("Backup failed", backupError);
      notify.error("Failed to save workflow and could not create backup.");
    }
  }
}

/** Downloads the workflow as a .json file. */
export async function exportWorkflow(documents: DocumentStore): Promise<void> {
  const data = await serializeCurrent(documents);
  const url = URL.createObjectURL(
    new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }),
  );
  const link = document.createElement("a");
  link.href = url;
  link.download = `${useWorkspace.getState().name.replace(/[^\w.-]+/g, "-") || "workflow"}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
