import { getNodeDefinition } from "@atelier/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ApiPrompt,
  buildComfyInput,
  COMFYUI_MESSAGES,
  TEMPLATES,
} from "../src/providers/comfyui/comfyui-input.ts";
import { createComfyUIProvider } from "../src/providers/comfyui/comfyui-provider.ts";
import { ProviderError } from "../src/providers/provider.ts";
import { startFakeComfyUI } from "./fakes/comfyui-server.ts";
import { pngBytes } from "./helpers/files.ts";

/** The prompts the ComfyUI templates build from a node's settings, and what they refuse. */
describe("ComfyUI prompts built from node settings", () => {
  const open: { close(): unknown }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0)) await item.close();
  });

  const runOf = (
    nodeType: string,
    inputs: Record<string, string | string[]>,
    params: Record<string, unknown> = {},
  ) => {
    const definition = getNodeDefinition(nodeType);
    if (!definition) throw new Error(nodeType);
    return {
      nodeType,
      endpoint: `comfyui/${nodeType}`,
      inputs,
      params: definition.params.parse(params) as Record<string, unknown>,
    };
  };

  const inputsOf = (prompt: ApiPrompt, id: string) => prompt[id]?.inputs ?? {};

  /** The user message of the refusal `build` throws. */
  const refusalOf = (build: () => unknown) => {
    try {
      build();
    } catch (error) {
      if (error instanceof ProviderError) return error.options.userMessage;
      throw error;
    }
    throw new Error("not refused");
  };

  it("every template links only to nodes it has, and fills every value it names", () => {
    for (const [name, template] of Object.entries(TEMPLATES)) {
      for (const node of Object.values(template.graph))
        for (const value of Object.values(node.inputs))
          if (Array.isArray(value)) expect(template.graph, name).toHaveProperty([String(value[0])]);
      expect(template.graph, name).toHaveProperty([template.output.node]);
    }
  });

  it("LTX-2 text to video: a half-size first pass, 8n + 1 frames, the fps everywhere", () => {
    const request = buildComfyInput(runOf("ltx-2-video", {}, { prompt: "a lighthouse at dusk" }));
    expect(request.template).toBe("ltx-2-video");
    expect(request.model).toBe("LTX-2");
    expect(request.uploads).toEqual({});
    expect(request.output).toEqual({ node: "29", port: "video" });
    const p = request.prompt;
    expect(inputsOf(p, "4")).toMatchObject({ text: "a lighthouse at dusk" });
    // 1080p: sampled at 960×544, doubled by the spatial upscaler; 6 s × 25 fps → 153 frames.
    expect(inputsOf(p, "7")).toMatchObject({ width: 960, height: 544, length: 153 });
    expect(inputsOf(p, "8")).toMatchObject({ frames_number: 153, frame_rate: 25 });
    expect(inputsOf(p, "6")).toMatchObject({ frame_rate: 25 });
    expect(inputsOf(p, "28")).toMatchObject({ fps: 25 });
    const seed = inputsOf(p, "10").noise_seed;
    expect(Number.isInteger(seed)).toBe(true);
    expect(seed).toBeGreaterThanOrEqual(0);
    expect(seed).toBeLessThan(2 ** 31);
    expect(inputsOf(p, "1")).toEqual({ ckpt_name: "ltx-2-19b-dev-fp8.safetensors" });
    expect(inputsOf(p, "17")).toEqual({ model_name: "ltx-2-spatial-upscaler-x2-1.0.safetensors" });
  });

  it("LTX-2 image to video: uploads the frame, sizes and frames from resolution, duration, fps", () => {
    const run = runOf(
      "ltx-2-video",
      { image: "http://us/frame.png" },
      { prompt: "the sea", resolution: "1440p", duration: "10", fps: "50" },
    );
    const request = buildComfyInput({ ...run, params: { ...run.params, seed: 7 } });
    expect(request.template).toBe("ltx-2-video-image");
    expect(request.uploads).toEqual({ image: "http://us/frame.png" });
    const p = request.prompt;
    expect(inputsOf(p, "30")).toEqual({ image: "{{upload:image}}" });
    // 1440p: 1280×736 sampled (2560×1472 out); 10 s × 50 fps = 500 → 505 (8n + 1).
    expect(inputsOf(p, "7")).toMatchObject({ width: 1280, height: 736, length: 505 });
    expect(inputsOf(p, "8")).toMatchObject({ frames_number: 505, frame_rate: 50 });
    expect(inputsOf(p, "10")).toEqual({ noise_seed: 7 });
    expect(inputsOf(p, "32")).toMatchObject({ image: ["31", 0], latent: ["7", 0] });
    expect(inputsOf(p, "33")).toMatchObject({ image: ["31", 0], latent: ["18", 0] });

    const uhd = buildComfyInput(runOf("ltx-2-video", {}, { resolution: "2160p", duration: "8" }));
    expect(inputsOf(uhd.prompt, "7")).toMatchObject({ width: 1920, height: 1088, length: 201 });
  });

  it("LTX-2 refuses the Fast model, silence and a retake, with the reason", () => {
    const message = (what: string) => COMFYUI_MESSAGES.unsupported(what, "LTX-2");
    expect(refusalOf(() => buildComfyInput(runOf("ltx-2-video", {}, { model: "fast" })))).toBe(
      "ComfyUI cannot run LTX-2 with the Fast model (choose Standard).",
    );
    expect(
      refusalOf(() => buildComfyInput(runOf("ltx-2-video", {}, { generateAudio: false }))),
    ).toBe(message("no sound (its ComfyUI workflow always makes the soundtrack)"));
    expect(
      refusalOf(() => buildComfyInput(runOf("ltx-2-video", { video1: "http://us/clip.mp4" }))),
    ).toBe("ComfyUI cannot run LTX-2 with a video to retake.");
  });

  it("Qwen Image with images edits them with Qwen-Image-Edit-2509, one to three", () => {
    const settings = {
      prompt: "make it snow",
      negativePrompt: "blur",
      imageSize: "portrait_4_3",
      numInferenceSteps: 20,
      guidanceScale: 4,
      numImages: 2,
      seed: 11,
    };
    const one = buildComfyInput(runOf("qwen", { image: "http://us/a.png" }, settings));
    expect(one.template).toBe("qwen-edit");
    expect(one.uploads).toEqual({ image1: "http://us/a.png" });
    expect(one.output).toEqual({ node: "10", port: "image" });
    const p = one.prompt;
    expect(inputsOf(p, "1")).toMatchObject({
      unet_name: "qwen_image_edit_2509_fp8_e4m3fn.safetensors",
    });
    expect(inputsOf(p, "12")).toEqual({ image: "{{upload:image1}}" });
    expect(inputsOf(p, "5")).toMatchObject({ prompt: "make it snow", image1: ["12", 0] });
    expect(inputsOf(p, "6")).toMatchObject({ prompt: "blur", image1: ["12", 0] });
    expect(inputsOf(p, "7")).toEqual({ width: 768, height: 1024, batch_size: 2 });
    expect(inputsOf(p, "8")).toMatchObject({ seed: 11, steps: 20, cfg: 4 });

    const two = buildComfyInput(
      runOf("qwen", { referenceImages: ["http://us/b.png", "http://us/c.png"] }, settings),
    );
    expect(two.template).toBe("qwen-edit-2");
    expect(two.uploads).toEqual({ image1: "http://us/b.png", image2: "http://us/c.png" });
    expect(inputsOf(two.prompt, "5")).toMatchObject({ image1: ["12", 0], image2: ["13", 0] });

    const three = buildComfyInput(
      runOf(
        "qwen",
        { image: "http://us/a.png", referenceImages: ["http://us/b.png", "http://us/c.png"] },
        settings,
      ),
    );
    expect(three.template).toBe("qwen-edit-3");
    expect(three.uploads).toEqual({
      image1: "http://us/a.png",
      image2: "http://us/b.png",
      image3: "http://us/c.png",
    });
    expect(inputsOf(three.prompt, "6")).toMatchObject({
      image1: ["12", 0],
      image2: ["13", 0],
      image3: ["14", 0],
    });

    // Without images, still text to image.
    expect(buildComfyInput(runOf("qwen", {}, settings)).template).toBe("qwen");
  });

  it("Qwen Image refuses more than three images", () => {
    const refs = ["http://us/b.png", "http://us/c.png", "http://us/d.png"];
    expect(
      refusalOf(() =>
        buildComfyInput(runOf("qwen", { image: "http://us/a.png", referenceImages: refs })),
      ),
    ).toBe("ComfyUI cannot run Qwen Image Edit 2509 with more than three images.");
  });

  it("the new templates pass ComfyUI's validation and save their output (fake ComfyUI)", async () => {
    const fake = await startFakeComfyUI();
    const provider = createComfyUIProvider({ urls: [fake.url], readMedia: () => pngBytes(32, 32) });
    open.push(fake, provider);
    const runs = [
      runOf("ltx-2-video", { image: "http://us/frame.png" }, { prompt: "waves" }),
      runOf("qwen", { image: "http://us/a.png", referenceImages: ["http://us/b.png"] }, {}),
    ];
    const types: string[] = [];
    for (const run of runs) {
      const input = provider.buildInput(run);
      const { requestId } = await provider.submit({
        endpoint: run.endpoint,
        input,
        idempotencyKey: "k",
      });
      let status = await provider.status("", requestId);
      while (status.status === "IN_QUEUE" || status.status === "IN_PROGRESS") {
        await new Promise((resolve) => setTimeout(resolve, 5));
        status = await provider.status("", requestId);
      }
      expect(status.status).toBe("COMPLETED");
      const result = await provider.result("", requestId, { outputs: [], request: input });
      types.push(...result.media.map((m) => `${m.output} ${m.contentType}`));
    }
    expect(types).toEqual(["video video/mp4", "image image/png"]);
    expect(fake.counters.uploads).toBe(3);
  });
});
