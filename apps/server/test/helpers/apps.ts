import { type SavedWorkflow, serializeWorkflow } from "@atelier/core";
import type { TestClient } from "./client.ts";
import { pngBytes, uploadForm } from "./files.ts";

/** Uploads a small PNG for the client; its URL on the server. */
export async function uploadPng(client: TestClient, workflowId = "temporary"): Promise<string> {
  const file = { name: "photo.png", type: "image/png", bytes: await pngBytes(16, 16) };
  const response = await client.raw("POST", "/api/media", {
    body: uploadForm(file, { workflowId }),
  });
  if (response.status !== 201) throw new Error(`upload failed: ${response.status}`);
  return ((await response.json()) as { url: string }).url;
}

/** photo (an uploaded image) + prompt (text) → edit (FLUX.1 Kontext): an app's workflow. */
export function appWorkflow(photoUrl: string, prompt = "make it a watercolour"): SavedWorkflow {
  const node = (id: string, type: string, x: number, data: Record<string, unknown>) => ({
    id,
    type,
    position: { x, y: 0 },
    data: { label: id, ...data },
  });
  const nodes = [
    node("photo", "utility", 0, {
      outputs: { imageUrl: photoUrl },
      outputValues: { output: { value: photoUrl } },
    }),
    node("prompt", "text", 0, { inputValues: { text: { value: prompt } } }),
    node("edit", "flux-kontext", 400, { inputValues: { numImages: { value: 1 } } }),
  ];
  const edges = [
    { id: "e1", source: "photo", sourceHandle: "output", target: "edit", targetHandle: "image" },
    { id: "e2", source: "prompt", sourceHandle: "text", target: "edit", targetHandle: "prompt" },
  ];
  return serializeWorkflow(
    { nodes, edges, metadata: { name: "Restyle" } },
    { now: Date.UTC(2026, 10, 1) },
  );
}

/** The app request exposing the prompt and the photo, showing the edit. */
export const APP_SETTINGS = {
  name: "Restyle a photo",
  description: "Upload a photo, say how to restyle it.",
  fields: [
    { kind: "param", nodeId: "prompt", param: "text", label: "Style" },
    { kind: "media", nodeId: "photo", label: "Photo" },
  ],
  outputs: [{ nodeId: "edit", label: "Result" }],
} as const;

/** Veo 3.1 Fast from a first and a last frame, 8 s with audio: 8 × $0.15 = $1.20 on fal. */
export const veoFrames = (first: string, last: string, nodeId: string) => ({
  nodeId,
  inputs: { firstFrame: first, lastFrame: last },
  params: { prompt: "a lighthouse at dusk", model: "fast", duration: "8s" },
});
