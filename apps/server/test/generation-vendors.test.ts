import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeElevenLabs } from "./fakes/elevenlabs-server.ts";
import { startFakeGoogle } from "./fakes/google-server.ts";
import { startFakeLuma } from "./fakes/luma-server.ts";
import { startFakeOpenAI } from "./fakes/openai-server.ts";
import { startFakeRunway } from "./fakes/runway-server.ts";
import { TestClient } from "./helpers/client.ts";
import { pngBytes, uploadForm } from "./helpers/files.ts";
import { waitForJob } from "./helpers/jobs.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

/**
 * The direct-API adapters behind the real engine: each vendor's fake on loopback, a node of
 * each run through `/api/generate`, its media copied into our storage.
 */
describe("generation through the vendors' own APIs (fakes on loopback)", () => {
  const fakes = {} as {
    runway: Awaited<ReturnType<typeof startFakeRunway>>;
    luma: Awaited<ReturnType<typeof startFakeLuma>>;
    google: Awaited<ReturnType<typeof startFakeGoogle>>;
    openai: Awaited<ReturnType<typeof startFakeOpenAI>>;
    elevenlabs: Awaited<ReturnType<typeof startFakeElevenLabs>>;
  };
  let server: TestServer;
  let client: TestClient;
  let image: string;
  beforeAll(async () => {
    fakes.runway = await startFakeRunway();
    fakes.luma = await startFakeLuma();
    fakes.google = await startFakeGoogle();
    fakes.openai = await startFakeOpenAI();
    fakes.elevenlabs = await startFakeElevenLabs();
    server = await startTestServer({
      RUNWAY_API_KEY: fakes.runway.key,
      RUNWAY_BASE_URL: fakes.runway.url,
      LUMA_API_KEY: fakes.luma.key,
      LUMA_BASE_URL: fakes.luma.url,
      GEMINI_API_KEY: fakes.google.key,
      GEMINI_BASE_URL: fakes.google.url,
      OPENAI_API_KEY: fakes.openai.key,
      OPENAI_BASE_URL: fakes.openai.url,
      ELEVENLABS_API_KEY: fakes.elevenlabs.key,
      ELEVENLABS_BASE_URL: fakes.elevenlabs.url,
      OUTBOUND_ALLOW_HOSTS: Object.values(fakes)
        .map((fake) => new URL(fake.url).host)
        .join(","),
      PROVIDER_POLL_MS: "20",
    });
    await (await server.ctx.generation()).engine.work({ concurrency: 3 });
    client = new TestClient(server.url);
    await client.signUp("vendors@example.com");
    const upload = await client.raw("POST", "/api/media", {
      body: uploadForm(
        { name: "start.png", type: "image/png", bytes: await pngBytes(64, 36) },
        { workflowId: "temporary" },
      ),
      headers: { origin: server.url },
    });
    image = ((await upload.json()) as { url: string }).url;
  });
  afterAll(async () => {
    await server.close();
    for (const fake of Object.values(fakes)) await fake.close();
  });

  const run = async (model: string, inputs: Record<string, unknown>) => {
    const started = await client.json<{ requestId: string; endpoint: string; error?: string }>(
      "POST",
      `/api/generate/${model}`,
      { nodeId: `node-${model}`, inputs },
    );
    expect(started.status, started.body.error).toBe(202);
    return {
      endpoint: started.body.endpoint,
      job: await waitForJob(client, started.body.requestId),
    };
  };

  const expectStored = async (url: unknown, type: RegExp) => {
    expect(String(url).startsWith(`${server.url}/api/media/file/`)).toBe(true);
    const response = await fetch(String(url));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(type);
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
  };

  it("Runway: image to video", async () => {
    const { endpoint, job } = await run("runway-video", { image, prompt: "slow pan" });
    expect(endpoint).toBe("v1/image_to_video");
    expect(job.status, job.error ?? "").toBe("COMPLETED");
    await expectStored(job.outputs?.videoUrl, /^video\//);
    expect(fakes.runway.counters.created).toBe(1);
  });

  it("Luma: Ray through the luma variant when fal has no key", async () => {
    const { endpoint, job } = await run("luma-ray", { prompt: "a comet" });
    expect(endpoint).toBe(`generations/video`);
    expect(job.status, job.error ?? "").toBe("COMPLETED");
    await expectStored(job.outputs?.videoUrl, /^video\//);
  });

  it("Google: Gemini text, answered synchronously in the same worker", async () => {
    const { job } = await run("gemini-text", { prompt: "Say hello" });
    expect(job.status, job.error ?? "").toBe("COMPLETED");
    expect(String(job.outputs?.text)).toContain("hello");
  });

  it("OpenAI: Sora video", async () => {
    const { job } = await run("sora-video", { prompt: "a kite" });
    expect(job.status, job.error ?? "").toBe("COMPLETED");
    await expectStored(job.outputs?.videoUrl, /^video\/webm/);
  });

  it("ElevenLabs: speech", async () => {
    const { job } = await run("elevenlabs-v3", { text: "Hello there" });
    expect(job.status, job.error ?? "").toBe("COMPLETED");
    await expectStored(job.outputs?.audioUrl, /^audio\//);
  });
});
