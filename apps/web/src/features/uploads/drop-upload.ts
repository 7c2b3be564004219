import {
  extensionForMimeType,
  fileExtension,
  getNodeDefinition,
  kindsOfExtension,
  type MediaKind,
  PLAIN_MEDIA_OUTPUT_KEY,
  type PortType,
  TEMPORARY_WORKFLOW_ID,
  validateUpload,
} from "@atelier/core";
import { ApiError, api } from "../../services/api.ts";
import { notify } from "../../ui/notify.ts";
import type { DocumentStore } from "../document/store.ts";
import type { CanvasNodeData } from "../document/types.ts";
import { usePreferences } from "../preferences/store.ts";
import { useWorkspace, type WorkspaceState } from "../workspace/store.ts";
import { compressForUpload } from "./compress-image.ts";
import { runUploadQueue, type UploadItem, type UploadQueueOptions } from "./media-uploads.ts";
import { recreateFromPng } from "./provenance-drop.ts";

/** The workflow a signed-out user (or an unsaved workflow) uploads for (SPEC §6). */
export { TEMPORARY_WORKFLOW_ID };

/** SPEC §8: the message of an upload that failed after its retries. */
export const UPLOAD_FAILED = "Failed to upload media";

/**
 * The catalogue type a dropped file lands in. The catalogue has no plain media holder: the
 * Image Container's output is an `array` (it cannot feed an `image` input), and every node
 * with an `image` output generates or processes. Utility's output is `any`, so it feeds any
 * input, and it needs no run. A dedicated holder type would only change this constant.
 */
export const UPLOAD_NODE_TYPE = "utility";

/** Where each kind's URL sits in `outputs` (SPEC §3 media output keys). */
export const UPLOAD_OUTPUT_KEYS: Record<MediaKind, string> = {
  image: PLAIN_MEDIA_OUTPUT_KEY.image,
  video: PLAIN_MEDIA_OUTPUT_KEY.video,
  audio: PLAIN_MEDIA_OUTPUT_KEY.audio,
  "3d": PLAIN_MEDIA_OUTPUT_KEY.object,
};

const PORT_OF_KIND: Record<MediaKind, PortType> = {
  image: "image",
  video: "video",
  audio: "audio",
  "3d": "object",
};

/** Dropped files are fanned out from the drop point by this much each, in flow units. */
const FAN_OUT = 40;

/** A file's media kind: by extension, with the MIME type settling webm and ogg. */
export function mediaKindOf(file: { name: string; type: string }): MediaKind | null {
  const kinds = kindsOfExtension(fileExtension(file.name));
  const major = file.type.split("/")[0];
  return kinds.find((kind) => kind === major) ?? kinds[0] ?? null;
}

/** The workflow id for an upload: the open cloud workflow when signed in, else "temporary". */
export function uploadWorkflowId(
  workspace: Pick<WorkspaceState, "user" | "location" | "workflowId">,
): string {
  return workspace.user && workspace.location === "cloud" && workspace.workflowId
    ? workspace.workflowId
    : TEMPORARY_WORKFLOW_ID;
}

export interface DropUploadOptions {
  documents: Pick<DocumentStore, "getState">;
  /** Defaults to `api.uploadMedia`. */
  upload?: (
    file: Blob,
    fileName: string,
    fields: { workflowId: string; nodeId?: string; outputKey?: string },
  ) => Promise<{ url: string }>;
  /** Defaults to the compressImagesBeforeUpload preference. */
  compressImages?: boolean;
  compress?: (blob: Blob) => Promise<Blob>;
  /** Defaults to `uploadWorkflowId` of the workspace. */
  workflowId?: string;
  queue?: typeof runUploadQueue;
  /** Tests pass an immediate `wait`. */
  queueOptions?: UploadQueueOptions;
  /** Defaults to an error toast. */
  onError?: (message: string) => void;
  /**
   * An Atelier PNG (one with an `atelier` provenance chunk) recreates the node that made it
   * instead of being uploaded. Off when the drop fills a node's input.
   */
  recreateGenerators?: boolean;
}

/** What became of one dropped file (results come in drop order). */
export interface DroppedFile {
  name: string;
  /** The node it landed in; null when validation refused it. */
  nodeId: string | null;
  url: string | null;
  error: string | null;
}

interface Pending {
  /** The file's place in the drop, for the results. */
  index: number;
  file: File;
  kind: MediaKind;
  nodeId: string;
  outputKey: string;
  prepared?: { blob: Blob; name: string };
  error?: unknown;
}

/** The port connected nodes read: the one of the kind's type, else an `any` port. */
function outputPortOf(kind: MediaKind): string {
  const outputs = getNodeDefinition(UPLOAD_NODE_TYPE)?.outputs ?? [];
  const port =
    outputs.find((candidate) => candidate.type === PORT_OF_KIND[kind]) ??
    outputs.find((candidate) => candidate.type === "any") ??
    outputs[0];
  return port?.id ?? UPLOAD_OUTPUT_KEYS[kind];
}

/**
 * What the user reads when an upload fails: the server's refusal, else SPEC's message; an
 * error that is not the server's reads `otherwise`.
 */
export function uploadFailureMessage(error: unknown, otherwise = UPLOAD_FAILED): string {
  if (!(error instanceof ApiError)) return otherwise;
  return error.status >= 400 && error.message ? error.message : UPLOAD_FAILED;
}

/** Sends one file to the server's media store. */
export const uploadMedia = (
  file: Blob,
  fileName: string,
  fields: { workflowId: string; nodeId?: string; outputKey?: string },
): Promise<{ url: string }> => api.uploadMedia(file, fileName, fields);

/**
 * Files dropped on the canvas: each is checked by core (SPEC §5 messages), compressed when
 * the preference says so (SPEC §9), and uploaded through the queue (3 at once, 3 retries)
 * into a node at the drop point that shows `uploadProgress` (0–100) while "processing".
 * On success the node holds the storage URL in `outputs` and in `outputValues` of its
 * output port, and is "complete"; a refusal or failure is toasted. Progress and results
 * are not undoable edits; a node deleted meanwhile is left alone.
 */
export async function dropUpload(
  files: readonly File[],
  position: { x: number; y: number },
  options: DropUploadOptions,
): Promise<DroppedFile[]> {
  const { documents } = options;
  const upload = options.upload ?? uploadMedia;
  const compressImages =
    options.compressImages ?? usePreferences.getState().compressImagesBeforeUpload;
  const compress = options.compress ?? compressForUpload;
  const workflowId = options.workflowId ?? uploadWorkflowId(useWorkspace.getState());
  const onError = options.onError ?? notify.error;

  const patch = (nodeId: string, change: (data: CanvasNodeData) => CanvasNodeData) => {
    const node = documents.getState().nodes.find((candidate) => candidate.id === nodeId);
    if (node) documents.getState().applyExternal(new Map([[nodeId, change(node.data)]]));
  };
  const setProgress = (nodeId: string, uploadProgress: number) =>
    patch(nodeId, (data) => ({ ...data, uploadProgress }));

  const results: DroppedFile[] = [];
  const pending: Pending[] = [];
  // Nodes this drop placed so far: each next one is fanned out from the drop point.
  let placed = 0;
  const nextPlace = () => {
    const offset = placed * FAN_OUT;
    return { x: position.x + offset, y: position.y + offset };
  };
  for (const [index, file] of files.entries()) {
    if (options.recreateGenerators) {
      const recreated = await recreateFromPng(file, nextPlace(), documents);
      if (recreated) {
        placed++;
        results[index] = { name: file.name, nodeId: recreated, url: null, error: null };
        continue;
      }
    }
    const problem = validateUpload(file);
    const kind = mediaKindOf(file);
    if (problem || !kind) {
      onError(problem ?? UPLOAD_FAILED);
      results[index] = {
        name: file.name,
        nodeId: null,
        url: null,
        error: problem ?? UPLOAD_FAILED,
      };
      continue;
    }
    const node = documents.getState().addNode(UPLOAD_NODE_TYPE, nextPlace());
    placed++;
    patch(node.id, (data) => ({
      ...data,
      label: file.name,
      status: "processing",
      error: null,
      uploadProgress: 0,
    }));
    pending.push({ index, file, kind, nodeId: node.id, outputKey: UPLOAD_OUTPUT_KEYS[kind] });
  }
  if (pending.length === 0) return results;

  const byNode = new Map(pending.map((entry) => [entry.nodeId, entry]));
  // The queue keys items by content; a per-node key keeps every dropped file its own upload.
  const items: UploadItem[] = pending.map((entry) => ({
    nodeId: entry.nodeId,
    path: ["outputs", entry.outputKey],
    dataUrl: `drop:${entry.nodeId}`,
    state: "pending",
    retries: 0,
    url: null,
  }));

  const prepare = async (entry: Pending) => {
    if (entry.prepared) return entry.prepared;
    let blob: Blob = entry.file;
    if (compressImages && entry.kind === "image") blob = await compress(blob);
    // Compression re-encodes as JPEG: the name must say so.
    const extension = blob === entry.file ? null : extensionForMimeType(blob.type);
    const name = extension
      ? `${entry.file.name.replace(/\.[^.]*$/, "")}.${extension}`
      : entry.file.name;
    entry.prepared = { blob, name };
    return entry.prepared;
  };

  await (options.queue ?? runUploadQueue)(
    items,
    async (item) => {
      const entry = byNode.get(item.nodeId) as Pending;
      setProgress(entry.nodeId, 10);
      try {
        const { blob, name } = await prepare(entry);
        setProgress(entry.nodeId, 40);
        const { url } = await upload(blob, name, {
          workflowId,
          nodeId: entry.nodeId,
          outputKey: entry.outputKey,
        });
        setProgress(entry.nodeId, 100);
        return url;
      } catch (error) {
        entry.error = error;
        throw error;
      }
    },
    options.queueOptions,
  );

  for (const item of items) {
    const entry = byNode.get(item.nodeId) as Pending;
    const url = item.state === "completed" ? item.url : null;
    const error = url ? null : uploadFailureMessage(entry.error);
    patch(entry.nodeId, ({ uploadProgress: _done, ...data }) =>
      url
        ? {
            ...data,
            status: "complete",
            error: null,
            outputs: { ...data.outputs, [entry.outputKey]: url },
            outputValues: { ...data.outputValues, [outputPortOf(entry.kind)]: { value: url } },
          }
        : { ...data, status: "error", error },
    );
    if (error) onError(error);
    results[entry.index] = { name: entry.file.name, nodeId: entry.nodeId, url, error };
  }
  return results;
}

/** Input port types a dropped file of each kind can fill. */
const PORT_TYPES_OF_KIND: Record<MediaKind, string[]> = {
  image: ["image"],
  video: ["video"],
  audio: ["audio"],
  "3d": ["object"],
};

/**
 * A file dropped on a node fills its first free input of the file's kind: the uploaded
 * node is wired into it once it holds the file (a wire needs content to be accepted).
 */
export function wireIntoNode(
  documents: DocumentStore,
  targetId: string,
  dropped: readonly (DroppedFile & { kind?: MediaKind | null })[],
): number {
  const state = documents.getState();
  const target = state.nodes.find((node) => node.id === targetId);
  const definition = target?.type ? getNodeDefinition(target.type) : undefined;
  if (!definition) return 0;
  let wired = 0;
  for (const file of dropped) {
    if (!file.nodeId || !file.url) continue;
    const kind = mediaKindOf({ name: file.name, type: "" });
    const filled = new Set(
      documents
        .getState()
        .edges.filter((edge) => edge.target === targetId)
        .map((edge) => edge.targetHandle),
    );
    const port = definition.inputs.find(
      (input) =>
        kind !== null &&
        PORT_TYPES_OF_KIND[kind].includes(input.type) &&
        (input.multiple || !filled.has(input.id)),
    );
    if (!port) continue;
    const verdict = documents.getState().connect({
      source: file.nodeId,
      sourceHandle: outputPortOf(kind as MediaKind),
      target: targetId,
      targetHandle: port.id,
    });
    if (verdict.ok) wired++;
  }
  return wired;
}
