import type { Pricing, ProvidersAnswer } from "@atelier/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMFYUI_MESSAGES } from "../src/providers/comfyui/comfyui-provider.ts";
import { type FakeComfyUI, startFakeComfyUI } from "./fakes/comfyui-server.ts";
import { TestClient } from "./helpers/client.ts";
import { pngBytes, uploadForm } from "./helpers/files.ts";
import { type JobStatus, waitForJob } from "./helpers/jobs.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

/**
 * The operator's ComfyUI behind the real engine: with COMFYUI_URL set and no fal key, the
 * open-weight nodes run there — progress on the job, results copied into our storage.
 */
describe("generation on the operator's ComfyUI (fake on loopback)", () => {
  let fake: FakeComfyUI;
  let server: TestServer;
  let client: TestClient;
  let image: string;
  beforeAll(async () => {
    fake = await startFakeComfyUI({ missingModels: ["qwen_image_vae.safetensors"] });
    server = await startTestServer({
      COMFYUI_URL: fake.url,
      PROVIDER_ORDER: "comfyui",
      PROVIDER_POLL_MS: "20",
    });
    await (await server.ctx.generation()).engine.work({ concurrency: 3 });
    client = new TestClient(server.url);
    await client.signUp("gpu@example.com");
    const upload = await client.raw("POST", "/api/media", {
      body: uploadForm(
        { name: "object.png", type: "image/png", bytes: await pngBytes(64, 64) },
        { workflowId: "temporary" },
      ),
      headers: { origin: server.url },
    });
    image = ((await upload.json()) as { url: string }).url;
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  const run = async (model: string, inputs: Record<string, unknown>, seen: string[] = []) => {
    const started = await client.json<{ requestId: string; endpoint: string; error?: string }>(
      "POST",
      `/api/generate/${model}`,
      { nodeId: `node-${model}`, inputs },
    );
    expect(started.status, started.body.error).toBe(202);
    return {
      endpoint: started.body.endpoint,
      job: await waitForJob(client, started.body.requestId, seen),
    };
  };

  const expectStored = async (job: JobStatus, port: string, type: RegExp) => {
    const url = String(job.outputs?.[port]);
    expect(url.startsWith(`${server.url}/api/media/file/`)).toBe(true);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(type);
    // Read to the end: an unread body holds its connection open through the server's close.
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
  };

  it("tells the editor ComfyUI is configured", async () => {
    const pricing = await client.json<Pricing>("GET", "/api/pricing");
    expect(pricing.body.providers).toContain("comfyui");
    expect(pricing.body.order).toEqual(["comfyui"]);
    // Known from /object_info, read at start: what the instance lacks, before any run.
    const lacking = async () => (await client.json<Pricing>("GET", "/api/pricing")).body.lacking;
    await expect.poll(lacking).toEqual({
      comfyui: {
        qwen: `ComfyUI at ${fake.url} cannot run Qwen Image: the model file qwen_image_vae.safetensors (VAELoader vae_name).`,
      },
    });
  });

  it("a FLUX dev (SRPO) image goes from a run to stored media, with progress on the way", async () => {
    fake.state.hold = true;
    const progressed = new Promise((resolve) => fake.events.once("progress", resolve));
    const started = await client.json<{ requestId: string; endpoint: string }>(
      "POST",
      "/api/generate/flux-spro",
      { nodeId: "flux", inputs: { prompt: "a red fox" } },
    );
    expect(started.body.endpoint).toBe("comfyui/flux-spro");
    await progressed;
    await expect
      .poll(async () => {
        const status = await client.json<JobStatus>("POST", "/api/queue/status", {
          requestId: started.body.requestId,
        });
        return [status.body.status, (status.body.progress ?? 0) > 0];
      })
      .toEqual(["IN_PROGRESS", true]);
    fake.state.hold = false;
    fake.release();
    const job = await waitForJob(client, started.body.requestId);
    expect(job.status, job.error ?? "").toBe("COMPLETED");
    await expectStored(job, "imageUrl", /^image\/png/);
  });

  it("Wan and LTX-2 videos and a Hunyuan3D model are stored too", async () => {
    const video = await run("wan-video", { prompt: "surf", image });
    expect(video.endpoint).toBe("comfyui/wan-video");
    expect(video.job.status, video.job.error ?? "").toBe("COMPLETED");
    await expectStored(video.job, "videoUrl", /^video\/mp4/);

    const ltx = await run("ltx-2-video", { prompt: "a lighthouse at dusk" });
    expect(ltx.endpoint).toBe("comfyui/ltx-2-video");
    expect(ltx.job.status, ltx.job.error ?? "").toBe("COMPLETED");
    await expectStored(ltx.job, "videoUrl", /^video\/mp4/);

    const model = await run("3d", { image });
    expect(model.job.status, model.job.error ?? "").toBe("COMPLETED");
    await expectStored(model.job, "modelUrl", /^model\/gltf-binary/);
  });

  it("a model file the instance lacks fails the job before anything is queued there", async () => {
    const before = fake.counters.prompts;
    const { job } = await run("qwen", { prompt: "a sign" });
    expect(job.status).toBe("FAILED");
    expect(job.error).toBe(
      `ComfyUI at ${fake.url} cannot run Qwen Image: the model file qwen_image_vae.safetensors (VAELoader vae_name).`,
    );
    expect(fake.counters.prompts).toBe(before);
    // An edit (an image connected) runs Qwen-Image-Edit, which needs the same VAE.
    const edit = await run("qwen", { prompt: "make it night", image });
    expect(edit.endpoint).toBe("comfyui/qwen");
    expect(edit.job.error).toBe(
      `ComfyUI at ${fake.url} cannot run Qwen Image: the model file qwen_image_vae.safetensors (VAELoader vae_name).`,
    );
    expect(fake.counters.prompts).toBe(before);
  });

  it("the Providers page lists ComfyUI's health and the nodes it can run, naming what is missing", async () => {
    const answer = await client.json<ProvidersAnswer>("GET", "/api/providers");
    expect(answer.status).toBe(200);
    expect(answer.body.order).toEqual(["comfyui"]);
    const comfy = answer.body.providers.find((provider) => provider.id === "comfyui");
    expect(comfy).toMatchObject({
      name: "ComfyUI",
      state: "ok",
      detail: null,
      instances: [{ url: fake.url, ok: true, error: null }],
    });
    const nodes = Object.fromEntries((comfy?.nodes ?? []).map((node) => [node.type, node]));
    expect(Object.keys(nodes).sort()).toEqual(
      [
        "3d",
        "3d-multiview",
        "flux-kontext",
        "flux-spro",
        "ltx-2-video",
        "qwen",
        "upscaler",
        "video-upscaler",
        "wan-video",
      ].sort(),
    );
    expect(nodes["flux-spro"]).toMatchObject({ displayName: "FLUX.1 SRPO", runnable: true });
    expect(nodes.qwen).toMatchObject({
      runnable: false,
      missing: "the model file qwen_image_vae.safetensors (VAELoader vae_name)",
    });
  });

  it("an unreachable ComfyUI is reported down on the page and to the editor", async () => {
    const closed = await startTestServer({ COMFYUI_URL: "http://127.0.0.1:9" });
    try {
      const other = new TestClient(closed.url);
      await other.signUp("down@example.com");
      const answer = await other.json<ProvidersAnswer>("GET", "/api/providers");
      expect(answer.body.providers).toEqual([
        expect.objectContaining({
          id: "comfyui",
          state: "down",
          detail: COMFYUI_MESSAGES.unreachable,
          instances: [
            { url: "http://127.0.0.1:9", ok: false, error: COMFYUI_MESSAGES.unreachable },
          ],
        }),
      ]);
      const pricing = await other.json<{ down: string[] }>("GET", "/api/pricing");
      expect(pricing.body.down).toEqual(["comfyui"]);
    } finally {
      await closed.close();
    }
  });

  it("a node's provider choice travels with its parameters and is not taken as a model setting", async () => {
    const started = await client.json<{ endpoint: string; error?: string }>(
      "POST",
      "/api/generate/upscaler",
      { nodeId: "choice", inputs: { image }, params: { provider: "comfyui", upscaleFactor: 2 } },
    );
    expect(started.status, started.body.error).toBe(202);
    expect(started.body.endpoint).toBe("comfyui/upscaler");
    // A provider this server does not have is no choice: the usual order decides.
    const other = await client.json<{ endpoint: string }>("POST", "/api/generate/upscaler", {
      nodeId: "choice-2",
      inputs: { image },
      params: { provider: "fal" },
    });
    expect(other.body.endpoint).toBe("comfyui/upscaler");
  });

  it("nodes ComfyUI has no template for stay on the offline provider", async () => {
    const { endpoint } = await run("imagen", { prompt: "a cat" });
    expect(endpoint.startsWith("local/")).toBe(true);
  });
});
