import { once } from "node:events";
import { getNodeDefinition } from "@atelier/core";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import {
  COMFYUI_MESSAGES,
  type ComfyUIProvider,
  createComfyUIProvider,
} from "../src/providers/comfyui/comfyui-provider.ts";
import { ProviderError, type ProviderStatus } from "../src/providers/provider.ts";
import { type FakeComfyOptions, startFakeComfyUI } from "./fakes/comfyui-server.ts";
import { pngBytes } from "./helpers/files.ts";

/** The ComfyUI adapter against a fake ComfyUI speaking server.py's HTTP + WebSocket API. */
describe("ComfyUI provider", () => {
  const open: { close(): unknown }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0)) await item.close();
  });

  async function setUp(options: FakeComfyOptions = {}, headers?: Record<string, string>) {
    const fake = await startFakeComfyUI(options);
    const provider = createComfyUIProvider({
      urls: [fake.url],
      ...(headers ? { headers } : {}),
      readMedia: () => pngBytes(32, 32),
    });
    open.push(fake, provider);
    return { fake, provider };
  }

  const runOf = (nodeType: string, inputs: Record<string, string>, params = {}) => {
    const definition = getNodeDefinition(nodeType);
    if (!definition) throw new Error(nodeType);
    return {
      nodeType,
      endpoint: `comfyui/${nodeType}`,
      inputs,
      params: definition.params.parse(params) as Record<string, unknown>,
    };
  };

  async function submit(provider: ComfyUIProvider, run: ReturnType<typeof runOf>) {
    const input = provider.buildInput(run);
    const { requestId } = await provider.submit({
      endpoint: run.endpoint,
      input,
      idempotencyKey: "k",
    });
    return { requestId, input };
  }

  /** Reads the status until the job ends, as the worker does; every status seen is kept. */
  async function settle(provider: ComfyUIProvider, requestId: string, seen: ProviderStatus[] = []) {
    for (;;) {
      // As the worker does: a failed read (network, 5xx) is tried again.
      const status = await provider.status("", requestId).catch((error) => {
        if (error instanceof ProviderError && error.kind !== "fatal") return null;
        throw error;
      });
      if (!status) continue;
      seen.push(status);
      if (status.status !== "IN_QUEUE" && status.status !== "IN_PROGRESS") return status;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  it("runs FLUX.1 SRPO text to image with the node's settings, progress and stored PNGs", async () => {
    const { fake, provider } = await setUp();
    fake.state.hold = true;
    const run = runOf(
      "flux-spro",
      {},
      {
        prompt: "a lighthouse",
        imageSize: "landscape_16_9",
        numInferenceSteps: 12,
        guidanceScale: 3,
        numImages: 2,
        seed: 42,
      },
    );
    const progressed = once(fake.events, "progress");
    const { requestId, input } = await submit(provider, run);
    expect(requestId).toMatch(/^0:[\w-]+$/);
    await progressed;
    // The socket has told the adapter the sampler started.
    await expect
      .poll(async () => (await provider.status("", requestId)).status)
      .toBe("IN_PROGRESS");
    const running = await provider.status("", requestId);
    expect(running.progress).toBeGreaterThan(0);
    expect(running.progress).toBeLessThan(100);
    fake.release();
    expect((await settle(provider, requestId)).status).toBe("COMPLETED");

    const sent = fake.received[0] ?? {};
    expect(sent["7"]?.inputs).toMatchObject({ width: 1024, height: 576, batch_size: 2 });
    expect(sent["8"]?.inputs).toMatchObject({ seed: 42, steps: 12 });
    expect(sent["5"]?.inputs).toMatchObject({ guidance: 3 });
    expect(sent["4"]?.inputs).toMatchObject({ text: "a lighthouse" });

    const result = await provider.result("", requestId, { outputs: [], request: input });
    expect(result.media).toHaveLength(2);
    for (const media of result.media) {
      expect(media.output).toBe("image");
      expect(media.contentType).toBe("image/png");
      const meta = await sharp(Buffer.from(media.bytes as Uint8Array)).metadata();
      expect([meta.width, meta.height]).toEqual([64, 36]); // the fake draws 1/16 scale
    }
  });

  it("runs Wan 2.2 image to video: uploads the frame, answers an MP4", async () => {
    const { fake, provider } = await setUp();
    const run = runOf(
      "wan-video",
      { image: "http://us/start.png" },
      {
        prompt: "waves",
        numFrames: 33,
        framesPerSecond: 24,
        resolution: "480p",
        aspectRatio: "9:16",
      },
    );
    const { requestId, input } = await submit(provider, run);
    expect(fake.counters.uploads).toBe(1);
    const sent = fake.received[0] ?? {};
    expect(sent["15"]?.inputs.image).toMatch(/^atelier-[\w-]+\.png$/);
    expect(sent["9"]?.inputs).toMatchObject({ width: 480, height: 848, length: 33 });
    expect(sent["13"]?.inputs).toMatchObject({ fps: 24 });
    expect((await settle(provider, requestId)).status).toBe("COMPLETED");
    const result = await provider.result("", requestId, { outputs: [], request: input });
    expect(result.media.map((m) => [m.output, m.contentType])).toEqual([["video", "video/mp4"]]);
  });

  it("runs Hunyuan3D from an image to a GLB model", async () => {
    const { provider } = await setUp();
    const run = runOf("3d", { image: "http://us/object.png" }, { octreeResolution: 128, seed: 7 });
    const { requestId, input } = await submit(provider, run);
    expect((await settle(provider, requestId)).status).toBe("COMPLETED");
    const result = await provider.result("", requestId, { outputs: [], request: input });
    expect(result.media.map((m) => [m.output, m.contentType])).toEqual([
      ["model", "model/gltf-binary"],
    ]);
    expect(
      Buffer.from(result.media[0]?.bytes as Uint8Array)
        .subarray(0, 4)
        .toString(),
    ).toBe("glTF");
  });

  it("runs Hunyuan3D multi-view from three uploaded views, and Real-ESRGAN over a video", async () => {
    const { fake, provider } = await setUp();
    const views = {
      frontView: "http://us/f.png",
      backView: "http://us/b.png",
      leftView: "http://us/l.png",
    };
    const model = await submit(provider, runOf("3d-multiview", views));
    expect(fake.counters.uploads).toBe(3);
    expect((await settle(provider, model.requestId)).status).toBe("COMPLETED");
    const mesh = await provider.result("", model.requestId, { outputs: [], request: model.input });
    expect(mesh.media.map((m) => m.output)).toEqual(["model"]);

    const video = await submit(
      provider,
      runOf(
        "video-upscaler",
        { video: "http://us/clip.mp4" },
        { model: "realesrgan", upscaleFactor: 3 },
      ),
    );
    const sent = fake.received[1] ?? {};
    expect(sent["2"]?.inputs.file).toMatch(/^atelier-/);
    expect(sent["5"]?.inputs).toMatchObject({ scale_by: 0.75 });
    expect((await settle(provider, video.requestId)).status).toBe("COMPLETED");
    const upscaled = await provider.result("", video.requestId, {
      outputs: [],
      request: video.input,
    });
    expect(upscaled.media.map((m) => [m.output, m.contentType])).toEqual([["video", "video/mp4"]]);
    // Topaz (the node's default) has no open weights: refused, with what to choose instead.
    expect(() => provider.buildInput(runOf("video-upscaler", { video: "x" }))).toThrow(
      expect.objectContaining({
        options: expect.objectContaining({
          userMessage: COMFYUI_MESSAGES.unsupported(
            "open weights (choose Real-ESRGAN)",
            "the topaz model",
          ),
        }),
      }),
    );
  });

  it("refuses before submitting when the instance lacks a model file or a node", async () => {
    const lacking = "wan2.2_t2v_low_noise_14B_fp8_scaled.safetensors";
    const { fake, provider } = await setUp({
      missingModels: [lacking],
      missingNodes: ["SaveVideo"],
    });
    const run = runOf("wan-video", {}, { prompt: "rain" });
    const error = await submit(provider, run).catch((e) => e);
    expect(error.kind).toBe("fatal");
    expect(error.options.userMessage).toBe(
      `ComfyUI at ${fake.url} cannot run Wan 2.2: the model file ${lacking} (UNETLoader unet_name), the node SaveVideo (a newer ComfyUI or a custom node).`,
    );
    expect(fake.counters.prompts).toBe(0);
  });

  it("refuses settings its templates cannot honour, with the reason", () => {
    const provider = createComfyUIProvider({
      urls: ["http://127.0.0.1:1"],
      readMedia: () => pngBytes(),
    });
    open.push(provider);
    expect(() => provider.buildInput(runOf("3d", { image: "x" }, { texturedMesh: true }))).toThrow(
      expect.objectContaining({
        options: expect.objectContaining({
          userMessage: COMFYUI_MESSAGES.unsupported(
            "a textured mesh (ComfyUI's nodes make untextured meshes)",
            "Hunyuan3D 2.0",
          ),
        }),
      }),
    );
  });

  it("cancel interrupts a running prompt, and deletes a waiting one from the queue", async () => {
    const { fake, provider } = await setUp();
    fake.state.hold = true;
    const progressed = once(fake.events, "progress");
    const first = await submit(provider, runOf("flux-spro", {}, { prompt: "one" }));
    await progressed;
    const second = await submit(provider, runOf("flux-spro", {}, { prompt: "two" }));
    const waiting = await provider.status("", second.requestId);
    expect([waiting.status, waiting.queuePosition]).toEqual(["IN_QUEUE", 0]);

    await provider.cancel("", second.requestId);
    expect(fake.counters.deletes).toBe(1);
    expect(fake.counters.interrupts).toBe(0);

    const finished = once(fake.events, "finished");
    await provider.cancel("", first.requestId);
    expect(fake.counters.interrupts).toBe(1);
    await finished;
    expect(await provider.status("", first.requestId)).toMatchObject({
      status: "FAILED",
      error: COMFYUI_MESSAGES.interrupted,
    });
    expect(fake.counters.prompts).toBe(2);
  });

  it("a dropped WebSocket falls back to /history and the job finishes once", async () => {
    const { fake, provider } = await setUp();
    fake.state.hold = true;
    const progressed = once(fake.events, "progress");
    const { requestId, input } = await submit(provider, runOf("flux-spro", {}, { prompt: "x" }));
    await progressed;
    fake.state.refuseSockets = true;
    fake.dropSockets();
    // With the socket gone, the adapter reads the queue over HTTP: still running.
    await expect
      .poll(async () => (await provider.status("", requestId)).status)
      .toBe("IN_PROGRESS");
    fake.release();
    const seen: ProviderStatus[] = [];
    expect((await settle(provider, requestId, seen)).status).toBe("COMPLETED");
    expect(seen.filter((s) => s.status === "COMPLETED")).toHaveLength(1);
    const result = await provider.result("", requestId, { outputs: [], request: input });
    expect(result.media).toHaveLength(1);
    expect(fake.counters.prompts).toBe(1);
  });

  it("a ComfyUI restart loses the running job with a clear message; the next run works", async () => {
    const { fake, provider } = await setUp();
    fake.state.hold = true;
    const progressed = once(fake.events, "progress");
    const lost = await submit(provider, runOf("flux-spro", {}, { prompt: "x" }));
    await progressed;
    await fake.restart();
    fake.state.hold = false;
    expect(await settle(provider, lost.requestId)).toMatchObject({
      status: "FAILED",
      error: COMFYUI_MESSAGES.lost,
    });
    const again = await submit(provider, runOf("flux-spro", {}, { prompt: "y" }));
    expect((await settle(provider, again.requestId)).status).toBe("COMPLETED");
  });

  it("a node's error fails the job with ComfyUI's own message", async () => {
    const { fake, provider } = await setUp();
    fake.state.failNext = "CUDA out of memory";
    const { requestId } = await submit(provider, runOf("flux-spro", {}, { prompt: "x" }));
    expect(await settle(provider, requestId)).toMatchObject({
      status: "FAILED",
      error: "ComfyUI failed: KSampler: CUDA out of memory",
    });
  });

  it("sends the configured auth header, and names it when the proxy refuses", async () => {
    const secret: [string, string] = ["Authorization", "Bearer s3cret"];
    const { fake, provider } = await setUp(
      { requireHeader: secret },
      { Authorization: "Bearer s3cret" },
    );
    const { requestId } = await submit(provider, runOf("flux-spro", {}, { prompt: "x" }));
    expect((await settle(provider, requestId)).status).toBe("COMPLETED");
    expect(fake.counters.sockets).toBe(1);

    const refused = createComfyUIProvider({ urls: [fake.url], readMedia: () => pngBytes() });
    open.push(refused);
    const error = await submit(refused, runOf("flux-spro", {}, { prompt: "x" })).catch((e) => e);
    expect(error.options.userMessage).toBe(COMFYUI_MESSAGES.denied(fake.url, 401));
  });

  it("a pool sends each prompt to the least busy instance that can run it", async () => {
    const busy = await startFakeComfyUI();
    const lacking = await startFakeComfyUI({ missingNodes: ["SaveGLB"] });
    const idle = await startFakeComfyUI();
    open.push(busy, lacking, idle);
    const provider = createComfyUIProvider({
      urls: [busy.url, lacking.url, idle.url],
      readMedia: () => pngBytes(32, 32),
    });
    open.push(provider);
    busy.state.hold = true;
    const progressed = once(busy.events, "progress");
    const first = await submit(provider, runOf("3d", { image: "x" }));
    expect(first.requestId.startsWith("0:")).toBe(true);
    await progressed;
    const second = await submit(provider, runOf("3d", { image: "x" }));
    expect(second.requestId.startsWith("2:")).toBe(true);
    expect(lacking.counters.prompts).toBe(0);
    busy.release();
    expect((await settle(provider, first.requestId)).status).toBe("COMPLETED");
    expect((await settle(provider, second.requestId)).status).toBe("COMPLETED");
  });
});
