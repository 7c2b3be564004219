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

  it("refuses bad runs with clear messages", async () => {
    const anonymous = new TestClient(server.url);
    const signedOut = await anonymous.json("POST", "/api/generate/flux-pro", {
      nodeId: "n1",
      inputs: { prompt: "x" },
    });
    expect(signedOut.status).toBe(401);
    const cases: [string, Record<string, unknown>, number, string][] = [
      ["nope", { nodeId: "n1" }, 404, "Unknown model: nope"],
      ["notepad", { nodeId: "n1" }, 400, "Notepad has nothing to run"],
      ["crop", { nodeId: "n1" }, 400, "Missing required input: Image"],
      [
        "crop",
        { nodeId: "n1", inputs: { image: "file:///etc/passwd" } },
        400,
        "Invalid media data: must be URL or base64 data URL",
      ],
      [
        "crop",
        { nodeId: "n1", inputs: { image: "data:image/png;base64," } },
        400,
        "Invalid base64 string: missing data content",
      ],
      [
        "flux-pro",
        { nodeId: "n1", inputs: { prompt: "x" }, workflowId: "not-mine" },
        404,
        "Workflow not found",
      ],
    ];
    for (const [model, body, status, error] of cases) {
      const answer = await client.json<{ error: string }>("POST", `/api/generate/${model}`, body);
      expect([model, answer.status, answer.body.error]).toEqual([model, status, error]);
    }
    const badParam = await client.json<{ error: string }>("POST", "/api/generate/crop", {
      nodeId: "n1",
      inputs: { image: media.image },
      params: { left: "far" },
    });
    expect(badParam.status).toBe(400);
    expect(badParam.body.error).toMatch(/^Invalid parameter left: /);
  });

  it("stores an inline (data URL) input first, then runs on its stored copy", async () => {
    const png = await pngBytes(40, 20);
    const answer = await client.json<{ requestId: string }>("POST", "/api/generate/resize", {
      nodeId: "inline",
      inputs: { image: `data:image/png;base64,${png.toString("base64")}` },
      params: { width: 20, height: 10 },
    });
    expect(answer.status).toBe(202);
    const job = await waitForJob(client, answer.body.requestId);
    expect(job.status).toBe("COMPLETED");
    const resized = Buffer.from(
      await (await fetch(String(job.outputs?.processedImage))).arrayBuffer(),
    );
    expect(await sharp(resized).metadata()).toMatchObject({ width: 20, height: 10 });
    const bad = await client.json<{ error: string }>("POST", "/api/generate/resize", {
      nodeId: "inline",
      inputs: { image: `data:image/png;base64,${Buffer.from("not a png").toString("base64")}` },
    });
    expect(bad.status).toBe(400);
  });

  it("starts a job once per idempotency key", async () => {
    const body = { nodeId: "n-once", inputs: { prompt: "once" }, idempotencyKey: "click-123456" };
    const first = await client.json<{ requestId: string }>("POST", "/api/generate/flux-pro", body);
    const again = await client.json<{ requestId: string }>("POST", "/api/generate/flux-pro", body);
    expect([first.status, again.status]).toEqual([202, 200]);
    expect(again.body.requestId).toBe(first.body.requestId);
    await waitForJob(client, first.body.requestId);
  });

  it("answers SPEC §7's status and result calls from the job rows", async () => {
    const video = await client.json<{ requestId: string }>("POST", "/api/generate/runway-video", {
      nodeId: "rw",
      inputs: { image: media.image },
    });
    const done = await waitForJob(client, video.body.requestId);
    const videoUrl = done.outputs?.videoUrl;
    const runway = await client.json("POST", "/api/generate/runway-video", {
      action: "check_status",
      task_id: video.body.requestId,
    });
    expect(runway.body).toMatchObject({ status: "SUCCEEDED", output: [videoUrl], progress: 1 });
    const wan = await client.json("POST", "/api/generate/wan", {
      action: "check_status",
      requestId: video.body.requestId,
      nodeId: "rw",
    });
    expect(wan.body).toMatchObject({ done: true, videoUrl, error: null });
    const query = `requestId=${video.body.requestId}&nodeId=rw`;
    for (const path of [
      "/api/generate/kling",
      "/api/generate/veo31-first-last-frame",
      "/api/utilities/video-upscale",
    ]) {
      const fetched = await client.json(`GET`, `${path}?${query}`);
      expect([path, fetched.status, fetched.body.videoUrl]).toEqual([path, 200, videoUrl]);
    }
    expect(
      (await client.json("GET", `/api/callbacks/luma?requestId=${video.body.requestId}`)).body,
    ).toMatchObject({ status: "COMPLETED", videoUrl });

    const image = await client.json<{ requestId: string }>("POST", "/api/generate/google-flash", {
      nodeId: "gf",
      inputs: { prompt: "a pear" },
    });
    const imageJob = await waitForJob(client, image.body.requestId);
    const flash = await client.json(
      "GET",
      `/api/generate/google-flash?requestId=${image.body.requestId}&nodeId=gf`,
    );
    expect(flash.body).toMatchObject({ images: [imageJob.outputs?.imageUrl] });
  });

  it("streams only the caller's own jobs", async () => {
    const bob = new TestClient(server.url);
    await bob.signUp("bob-generator@example.com");
    const seenByBob: string[] = [];
    const aliceJob = await client.json<{ requestId: string }>("POST", "/api/generate/flux-pro", {
      nodeId: "private",
      inputs: { prompt: "private" },
    });
    const bobJob = await bob.json<{ requestId: string }>("POST", "/api/generate/flux-pro", {
      nodeId: "bobs",
      inputs: { prompt: "bob's" },
    });
    // Bob's stream until his own job ends: Alice's job, running alongside, never shows.
    const ids: string[] = [];
    await waitForJob(bob, bobJob.body.requestId, seenByBob, ids);
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids)).toEqual(new Set([bobJob.body.requestId]));
    await waitForJob(client, aliceJob.body.requestId);
  });

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
