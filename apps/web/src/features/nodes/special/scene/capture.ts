import { LIMITS } from "@atelier/core";
import { notify } from "../../../../ui/notify.ts";
import type { DocumentStore } from "../../../document/store.ts";
import type { CanvasNodeData } from "../../../document/types.ts";
import type { HistoryEntry } from "../../../runs/ResultHistory.tsx";
import {
  uploadFailureMessage,
  uploadMedia,
  uploadWorkflowId,
} from "../../../uploads/drop-upload.ts";
import { useWorkspace } from "../../../workspace/store.ts";
import { round, type SceneCamera, type Vec3 } from "./scene-state.ts";

/** The shape of every capture; the viewport in the node has the same aspect. */
export const CAPTURE_ASPECT = "16:9";

/** What the "Camera" output carries: enough to frame the same shot again. */
export interface CameraValue {
  position: Vec3;
  target: Vec3;
  /** Vertical field of view, degrees. */
  fov: number;
  lens: number;
  aspect: string;
  width: number;
  height: number;
}

/** Pixel size of a capture of `aspect` ("16:9") whose long side is `longSide`. */
export function captureSize(aspect = CAPTURE_ASPECT, longSide = 1280) {
  const match = /^(\d+):(\d+)$/.exec(aspect);
  const [w, h] = match ? [Number(match[1]), Number(match[2])] : [16, 9];
  const scale = longSide / Math.max(w, h, 1);
  const even = (value: number) => Math.max(2, Math.round((value * scale) / 2) * 2);
  return { width: even(w), height: even(h) };
}

export function cameraValue(
  camera: SceneCamera,
  fov: number,
  lens: number,
  aspect = CAPTURE_ASPECT,
): CameraValue {
  return {
    position: camera.position.map(round) as Vec3,
    target: camera.target.map(round) as Vec3,
    fov: round(fov),
    lens,
    aspect,
    ...captureSize(aspect),
  };
}

/**
 * The node after a capture: the image and camera as its outputs (what video nodes read),
 * "complete", and the shot added to its results so earlier captures can be stepped back to.
 */
export function capturedData(
  data: CanvasNodeData,
  url: string,
  camera: CameraValue,
  signature: string,
  at: number,
): CanvasNodeData {
  const { uploadProgress: _done, ...rest } = data;
  const outputs = { imageUrl: url, camera };
  const outputValues = { image: { value: url }, camera: { value: camera } };
  const history = [
    ...((data.history as HistoryEntry[] | undefined) ?? []),
    { requestId: `capture-${at}`, at, outputs, outputValues },
  ].slice(-LIMITS.text.historyEntries);
  return {
    ...rest,
    status: "complete",
    error: null,
    outputs,
    outputValues,
    history,
    captureSignature: signature,
  };
}

export interface CaptureDeps {
  upload?: (
    file: Blob,
    fileName: string,
    fields: { workflowId: string; nodeId?: string; outputKey?: string },
  ) => Promise<{ url: string }>;
  workflowId?: string;
  onError?: (message: string) => void;
  now?: () => number;
}

/** The rendered shot: PNG bytes, the camera it was taken with, and what the scene was. */
export interface Shot {
  blob: Blob;
  camera: CameraValue;
  signature: string;
}

/**
 * "Capture" (the node's run): render the shot, upload it like a dropped file (signed out:
 * the temporary workflow), then write it into the node's outputs. Progress shows on the
 * node; a failure is shown there and toasted, and the last good capture is kept.
 */
export async function captureScene(
  documents: Pick<DocumentStore, "getState">,
  nodeId: string,
  shoot: () => Promise<Shot>,
  deps: CaptureDeps = {},
): Promise<string | null> {
  const upload = deps.upload ?? uploadMedia;
  const onError = deps.onError ?? notify.error;
  const now = deps.now ?? Date.now;
  const patch = (change: (data: CanvasNodeData) => CanvasNodeData) => {
    const node = documents.getState().nodes.find((candidate) => candidate.id === nodeId);
    if (node) documents.getState().applyExternal(new Map([[nodeId, change(node.data)]]));
  };
  const progress = (uploadProgress: number) => patch((data) => ({ ...data, uploadProgress }));

  patch((data) => ({ ...data, status: "processing", error: null, uploadProgress: 0 }));
  try {
    const shot = await shoot();
    progress(40);
    const at = now();
    const { url } = await upload(shot.blob, `scene-${at}.png`, {
      workflowId: deps.workflowId ?? uploadWorkflowId(useWorkspace.getState()),
      nodeId,
      outputKey: "imageUrl",
    });
    patch((data) => capturedData(data, url, shot.camera, shot.signature, at));
    return url;
  } catch (error) {
    const message = uploadFailureMessage(error, "Could not capture the scene");
    console.error("Scene capture failed", error);
    patch(({ uploadProgress: _stop, ...data }) => ({ ...data, status: "error", error: message }));
    onError(message);
    return null;
  }
}
