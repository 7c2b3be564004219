import { extensionForMimeType, LIMITS, type SavedWorkflow, type WorkflowRow } from "@atelier/core";
import { ApiError, api } from "../../services/api.ts";
import type { DocumentStore } from "../document/store.ts";
import type { CanvasNodeData } from "../document/types.ts";
import { usePreferences } from "../preferences/store.ts";
import { compressForUpload, dataUrlToBlob } from "../uploads/compress-image.ts";
import {
  findEmbeddedMedia,
  hasEmbeddedMedia,
  replaceAtPath,
  runUploadQueue,
} from "../uploads/media-uploads.ts";
import { saveInBatches } from "./batch-save.ts";
import {
  baseFor,
  diffSnapshots,
  forgetSaved,
  isFinalForDelta,
  rememberSaved,
  type SavedSnapshot,
  sendDelta,
  snapshotOf,
} from "./delta-save.ts";

export interface CloudRow {
  id: string;
  basedOn: string;
}

/**
 * A first save (or "save as copy") starts from an empty row, so media and batches have a
 * workflow to belong to; later steps fill it, and a failed save retries into the same row.
 */
export async function createEmptyRow(name: string, data: SavedWorkflow): Promise<CloudRow> {
  const { workflow } = await api.createWorkflow(name, { ...data, nodes: [], edges: [] });
  return { id: workflow.id, basedOn: workflow.updated_at };
}

/** The version of a cloud workflow on the server now, or null when it is gone (404). */
export async function serverVersion(id: string): Promise<string | null> {
  try {
    return (await api.getWorkflow(id)).workflow.updated_at;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** True when the document holds embedded media a cloud save would upload first. */
export function hasMediaToUpload(documents: DocumentStore): boolean {
  return usePreferences.getState().autoUploadMedia && hasEmbeddedMedia(documents.getState().nodes);
}

/**
 * Uploads the document's large embedded media into the workflow's storage (3 at a time,
 * 3 retries) and puts the storage URLs in its place on the canvas. A file that fails to
 * upload stays embedded.
 */
export async function uploadEmbeddedMedia(
  documents: DocumentStore,
  workflowId: string,
  onProgress: (fraction: number) => void,
): Promise<void> {
  const { compressImagesBeforeUpload } = usePreferences.getState();
  const items = findEmbeddedMedia(documents.getState().nodes);
  await runUploadQueue(
    items,
    async (item) => {
      let file = dataUrlToBlob(item.dataUrl);
      if (compressImagesBeforeUpload) file = await compressForUpload(file);
      const extension = extensionForMimeType(file.type);
      if (!extension) throw new Error(`Media of type ${file.type || "unknown"} cannot be stored`);
      const { url } = await api.uploadMedia(file, `media.${extension}`, {
        workflowId,
        nodeId: item.nodeId,
        outputKey: String(item.path[1]),
      });
      return url;
    },
    {
      onChange: (all) =>
        onProgress(
          all.filter((item) => item.state === "completed" || item.state === "failed").length /
            all.length,
        ),
    },
  );
  const changed = new Map<string, CanvasNodeData>();
  const nodes = new Map(documents.getState().nodes.map((node) => [node.id, node]));
  for (const item of items) {
    const data = changed.get(item.nodeId) ?? nodes.get(item.nodeId)?.data;
    if (item.url && data) changed.set(item.nodeId, replaceAtPath(data, item.path, item.url));
  }
  documents.getState().applyExternal(changed);
}

/**
 * Writes the workflow over its cloud row: only what changed when the row is still at the
 * version this tab last saved, else whole (in node batches above 2 MB, else in one request).
 */
export async function writeCloudRow(
  row: CloudRow,
  name: string,
  data: SavedWorkflow,
  bytes: number,
  onProgress: (fraction: number) => void,
  /** The snapshot of `data`, when the caller has its texts already (saved-form.ts). */
  snapshot: SavedSnapshot = snapshotOf(data),
): Promise<WorkflowRow> {
  const base = baseFor(row.id, row.basedOn);
  const delta = base && diffSnapshots(base, snapshot, data, bytes);
  if (delta) {
    try {
      const workflow = await sendDelta(row.id, name, data, row.basedOn, delta);
      rememberSaved(workflow.id, workflow.updated_at, snapshot);
      onProgress(1);
      return workflow;
    } catch (error) {
      if (isFinalForDelta(error)) throw error;
      console.warn("Delta save failed; saving the whole workflow instead", error);
    }
  }
  forgetSaved();
  const workflow =
    bytes > LIMITS.chunking.batchAboveBytes
      ? await saveInBatches(row.id, name, data, row.basedOn, { onProgress })
      : (await api.saveWorkflow(row.id, name, data, row.basedOn)).workflow;
  rememberSaved(workflow.id, workflow.updated_at, snapshot);
  return workflow;
}
