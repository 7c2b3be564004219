import { listNodeDefinitions, type NodeDefinition } from "@atelier/core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderVideo } from "../src/providers/local/media/index.ts";
import { TestClient } from "./helpers/client.ts";
import { glbBytes, pngBytes, uploadForm, wavBytes } from "./helpers/files.ts";
import { type JobStatus, waitForJob } from "./helpers/jobs.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

/** Uploads one input file as the user's unsaved workflow's media; answers its URL. */
async function upload(client: TestClient, name: string, type: string, bytes: Buffer) {
  const response = await client.raw("POST", "/api/media", {
    body: uploadForm({ name, type, bytes }, { workflowId: "temporary" }),
    headers: { origin: client.baseUrl },
  });
  const body = (await response.json()) as { url: string; error?: string };
  if (response.status !== 201) throw new Error(`upload failed: ${body.error}`);
  return body.url;
}

/** Downloads a result and checks it decodes as its kind, not just that it is non-empty. */
async function expectMediaOfKind(url: string, kind: string, label: string) {
  const response = await fetch(url);
  expect(response.status, label).toBe(200);
  const type = response.headers.get("content-type") ?? "";
  const bytes = Buffer.from(await response.arrayBuffer());
  switch (kind) {
    case "image": {
      expect(type, label).toMatch(/^image\//);
      const meta = await sharp(bytes).metadata();
      expect(meta.width, label).toBeGreaterThan(0);
      break;
    }
    case "video":
      expect(type, label).toBe("video/webm");
      expect(bytes.subarray(0, 4).toString("hex"), label).toBe("1a45dfa3");
      break;
    case "audio":
      expect(type, label).toBe("audio/wav");
      expect(bytes.toString("latin1", 0, 4) + bytes.toString("latin1", 8, 12), label).toBe(
        "RIFFWAVE",
      );
      break;
    case "object":
      expect(type, label).toBe("model/gltf-binary");
      expect(bytes.toString("latin1", 0, 4), label).toBe("glTF");
      break;
  }
}

describe("generation with no keys: the local provider runs every node type", () => {
  let server: TestServer;
  let client: TestClient;
  const media: Record<string, string> = {};
  beforeAll(async () => {
    server = await startTestServer({ LOCAL_PROVIDER_STEP_MS: "10" });
    await (await server.ctx.generation()).engine.work({ concurrency: 4 });
    client = new TestClient(server.url);
    await client.signUp("generator@example.com");
    media.image = await upload(client, "in.png", "image/png", await pngBytes(96, 64));
    const video = await renderVideo({ prompt: "input", seed: 1, durationSeconds: 1 });
    media.video = await upload(client, "in.webm", "video/webm", video.bytes);
    media.audio = await upload(client, "in.wav", "audio/wav", wavBytes());
    media.object = await upload(client, "in.glb", "model/gltf-binary", glbBytes());
  }, 120_000);
  afterAll(() => server.close());

  const inputsFor = (definition: NodeDefinition) => {
    const inputs: Record<string, unknown> = {};
    for (const port of definition.inputs) {
      if (!port.required) continue;
      const value = media[port.type] ?? "a red fox in the snow";
      inputs[port.id] = port.multiple ? [value] : value;
    }
    return inputs;
  };

  it("walks the whole catalogue: each runnable node yields media of its output kinds", async () => {
    const runnable = listNodeDefinitions().filter((definition) => definition.run.kind !== "none");
    expect(runnable.length).toBeGreaterThan(70);
    const started = new Map<string, string>();
    for (const definition of runnable) {
      const answer = await client.json<{ requestId: string; endpoint: string; status: string }>(
        "POST",
        `/api/generate/${definition.type}`,
        { nodeId: `node-${definition.type}`, inputs: inputsFor(definition), params: {} },
      );
      expect(answer.status, `${definition.type}: ${JSON.stringify(answer.body)}`).toBe(202);
      expect(answer.body.status).toBe("IN_QUEUE");
      expect(answer.body.endpoint).toMatch(/^local\//);
      started.set(definition.type, answer.body.requestId);
    }
    for (const definition of runnable) {
      const job: JobStatus = await waitForJob(client, started.get(definition.type) as string);
      expect(job.status, `${definition.type}: ${job.error}`).toBe("COMPLETED");
      for (const port of definition.outputs) {
        const value = job.outputValues?.[port.id]?.value;
        const label = `${definition.type}.${port.id}`;
        expect(value, label).toBeDefined();
        if (["image", "video", "audio"].includes(port.type) || port.id === "model")
          await expectMediaOfKind(String(value), port.id === "model" ? "object" : port.type, label);
        else if (port.type === "text") expect(String(value).length, label).toBeGreaterThan(0);
      }
    }
  }, 300_000);

  it("reports queue position and progress on the way, and SPEC's output keys at the end", async () => {
    const answer = await client.json<{ requestId: string }>("POST", "/api/generate/veo3-video", {
      nodeId: "video-1",
      inputs: { prompt: "waves" },
      params: {},
    });
    const seen: string[] = [];
    const job = await waitForJob(client, answer.body.requestId, seen);
    expect(job.status).toBe("COMPLETED");
    expect(seen).toContain("IN_PROGRESS");
    expect(job.progress).toBe(100);
    expect(job.outputs?.videoUrl).toBe(job.outputValues?.video?.value);
    expect(String(job.outputs?.capturedFrame)).toMatch(/\.png$/);
    const status = await client.json<Record<string, unknown>>("POST", "/api/queue/status", {
      requestId: answer.body.requestId,
      endpoint: "local/veo3-video",
      nodeId: "video-1",
      model: "veo3-video",
    });
    expect(status.body).toMatchObject({
      status: "COMPLETED",
      data: { video: { url: job.outputs?.videoUrl } },
      error: null,
    });
  });
});
