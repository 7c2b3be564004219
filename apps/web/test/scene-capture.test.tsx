import { gatherInputs, SCENE_VIDEO_DEFAULT_PROMPT } from "@atelier/core";
import { describe, expect, it, vi } from "vitest";
import { createDocumentStore } from "../src/features/document/store.ts";
import {
  type CameraValue,
  cameraValue,
  capturedData,
  captureScene,
  captureSize,
} from "../src/features/nodes/special/scene/capture.ts";
import { lensFov } from "../src/features/nodes/special/scene/scene-state.ts";
import { ApiError } from "../src/services/api.ts";
import { wire as edge, node } from "./helpers/graph.ts";

const value = (url: string | string[]) => ({ value: url });

describe("capturing", () => {
  const camera: CameraValue = cameraValue(
    { position: [0, 1.23456, 4], target: [0, 0.5, 0] },
    lensFov(50),
    50,
  );

  it("sizes a capture from its aspect ratio, and describes its camera", () => {
    expect(captureSize()).toEqual({ width: 1280, height: 720 });
    expect(captureSize("9:16")).toEqual({ width: 720, height: 1280 });
    expect(captureSize("1:1", 1024)).toEqual({ width: 1024, height: 1024 });
    expect(camera).toEqual({
      position: [0, 1.2346, 4],
      target: [0, 0.5, 0],
      fov: lensFov(50),
      lens: 50,
      aspect: "16:9",
      width: 1280,
      height: 720,
    });
  });

  it("writes the shot as the node's outputs, and keeps the last 20 as results", () => {
    const history = Array.from({ length: 20 }, (_, index) => ({ requestId: `r${index}` }));
    const data = capturedData(
      { label: "Scene", uploadProgress: 100, status: "processing", history },
      "https://x.test/shot.png",
      camera,
      "sig",
      7,
    );
    expect(data).toMatchObject({
      label: "Scene",
      status: "complete",
      error: null,
      outputs: { imageUrl: "https://x.test/shot.png", camera },
      outputValues: { image: { value: "https://x.test/shot.png" }, camera: { value: camera } },
      captureSignature: "sig",
    });
    expect(data).not.toHaveProperty("uploadProgress");
    expect(data.history).toHaveLength(20);
    expect((data.history as { requestId: string }[]).at(-1)?.requestId).toBe("capture-7");
  });

  const setup = () => {
    const documents = createDocumentStore({
      nodes: [
        node("s", "scene-composer", {
          outputs: { imageUrl: "https://x.test/old.png" },
          outputValues: { image: value("https://x.test/old.png") },
        }),
        node("v", "kling-video", { inputValues: { prompt: { value: "" } } }),
      ],
      edges: [edge("s", "image", "v", "image")],
    });
    const shoot = vi.fn(async () => ({
      blob: new Blob(["png"], { type: "image/png" }),
      camera,
      signature: "sig",
    }));
    const scene = () => documents.getState().nodes.find((n) => n.id === "s")?.data;
    return { documents, shoot, scene };
  };

  it("uploads the shot, then a video fed by it gets the image and SPEC §9's prompt", async () => {
    const { documents, shoot, scene } = setup();
    const progress: unknown[] = [];
    documents.subscribe((state) => progress.push(state.nodes[0]?.data.uploadProgress));
    const upload = vi.fn(async () => ({ url: "https://x.test/shot.png" }));
    const url = await captureScene(documents, "s", shoot, {
      upload,
      workflowId: "wf",
      now: () => 9,
    });
    expect(url).toBe("https://x.test/shot.png");
    expect(upload).toHaveBeenCalledWith(expect.any(Blob), "scene-9.png", {
      workflowId: "wf",
      nodeId: "s",
      outputKey: "imageUrl",
    });
    expect(progress).toEqual([0, 40, undefined]);
    expect(scene()?.status).toBe("complete");
    const { nodes, edges } = documents.getState();
    expect(gatherInputs(nodes, edges, "v").inputs).toEqual({
      prompt: SCENE_VIDEO_DEFAULT_PROMPT,
      image: "https://x.test/shot.png",
    });
    expect(documents.getState().past).toHaveLength(0); // a capture is a result, not an edit
  });

  it("shows a failed upload on the node, toasts it and keeps the last good capture", async () => {
    const { documents, shoot, scene } = setup();
    const onError = vi.fn();
    const upload = vi.fn(async () => {
      throw new ApiError(413, "File is too large");
    });
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(await captureScene(documents, "s", shoot, { upload, workflowId: "wf", onError })).toBe(
      null,
    );
    expect(scene()).toMatchObject({
      status: "error",
      error: "File is too large",
      outputs: { imageUrl: "https://x.test/old.png" },
    });
    expect(scene()).not.toHaveProperty("uploadProgress");
    expect(onError).toHaveBeenCalledWith("File is too large");

    shoot.mockRejectedValueOnce(new Error("context lost"));
    await captureScene(documents, "s", shoot, { upload, workflowId: "wf", onError });
    expect(onError).toHaveBeenLastCalledWith("Could not capture the scene");
  });
});
