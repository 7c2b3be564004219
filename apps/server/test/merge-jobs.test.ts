import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/env.ts";
import { locateFfmpeg } from "../src/providers/local/ffmpeg/locate.ts";
import { probe } from "../src/providers/local/ffmpeg/run.ts";
import { renderVideo } from "../src/providers/local/media/index.ts";
import { type FakeFal, startFakeFal } from "./fakes/fal-server.ts";
import { TestClient } from "./helpers/client.ts";
import { uploadForm, wavBytes } from "./helpers/files.ts";
import { waitForJob } from "./helpers/jobs.ts";
import { startTestServer } from "./helpers/server.ts";

// Which service merges videos: a local ffmpeg when the server has one, else the configured
// provider (fal), else the offline stand-in.

const ffmpeg = locateFfmpeg(null) as string;
let dir: string;
const clips: Buffer[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "merge-jobs-"));
  for (const [seed, durationSeconds] of [
    [1, 2],
    [2, 1.5],
  ] as const)
    clips.push((await renderVideo({ prompt: "clip", seed, durationSeconds })).bytes);
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

async function upload(client: TestClient, name: string, type: string, bytes: Buffer) {
  const response = await client.raw("POST", "/api/media", {
    body: uploadForm({ name, type, bytes }, { workflowId: "temporary" }),
    headers: { origin: client.baseUrl },
  });
  const body = (await response.json()) as { url: string };
  expect(response.status).toBe(201);
  return body.url;
}

/** Starts a server as configured, signed in, with both clips and a sound uploaded. */
async function serverWith(env: Record<string, string>) {
  const server = await startTestServer({ LOCAL_PROVIDER_STEP_MS: "10", ...env });
  await (await server.ctx.generation()).engine.work({ concurrency: 2 });
  const client = new TestClient(server.url);
  await client.signUp(`merge-${Math.random().toString(36).slice(2)}@example.com`);
  const [video1, video2] = [
    await upload(client, "one.webm", "video/webm", clips[0] as Buffer),
    await upload(client, "two.webm", "video/webm", clips[1] as Buffer),
  ];
  const sound = await upload(client, "sound.wav", "audio/wav", wavBytes(44100));
  const run = (model: string, inputs: Record<string, string>, params = {}) =>
    client.json<{ requestId: string; endpoint: string }>("POST", `/api/generate/${model}`, {
      nodeId: `node-${model}`,
      inputs,
      params,
    });
  return { server, client, video1, video2, sound, run } as const;
}

/** Downloads a result video and describes it. */
async function probeUrl(url: string) {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.webm`);
  const response = await fetch(url);
  expect(response.headers.get("content-type")).toBe("video/webm");
  await writeFile(file, Buffer.from(await response.arrayBuffer()));
  return probe(ffmpeg, file);
}

describe("merges with the server's ffmpeg", () => {
  let setup: Awaited<ReturnType<typeof serverWith>>;
  let fal: FakeFal;
  beforeAll(async () => {
    // A fal key is set too: a local ffmpeg still wins, nothing is paid for.
    fal = await startFakeFal();
    setup = await serverWith({ FAL_KEY: fal.key, FAL_QUEUE_URL: fal.url });
  }, 120_000);
  afterAll(async () => {
    await setup.server.close();
    await fal.close();
  });

  it("joins two uploaded videos into one as long as both", async () => {
    expect((await setup.server.ctx.generation()).providers.ffmpeg).toBe(ffmpeg);
    const started = await setup.run("merge-videos", {
      video1: setup.video1,
      video2: setup.video2,
    });
    expect(started.status).toBe(202);
    expect(started.body.endpoint).toBe("local/merge-videos");
    const job = await waitForJob(setup.client, started.body.requestId);
    expect(job.status, job.error ?? "").toBe("COMPLETED");
    expect(job.outputs?.mergedVideo).toBe(job.outputs?.videoUrl);
    const merged = await probeUrl(String(job.outputs?.mergedVideo));
    expect(merged.duration).toBeCloseTo(3.5, 1);
    expect(job.outputValues?.capturedFrame?.value).toMatch(/\/api\/media\/file\/.+/);
    expect(fal.counters.created).toBe(0);
  });

  it("lays an uploaded sound over a video", async () => {
    const started = await setup.run(
      "merge-audio-video",
      { video: setup.video1, media: setup.sound },
      { startOffset: 0.25 },
    );
    expect(started.body.endpoint).toBe("local/merge-audio-video");
    const job = await waitForJob(setup.client, started.body.requestId);
    expect(job.status, job.error ?? "").toBe("COMPLETED");
    const merged = await probeUrl(String(job.outputs?.mergedVideo));
    expect(merged.audio).toEqual({ codec: "opus" });
    expect(merged.duration).toBeCloseTo(2, 1);
  });

  it("fails a merge of something that is not a video with a clear message", async () => {
    const started = await setup.run("merge-videos", { video1: setup.video1, video2: setup.sound });
    const job = await waitForJob(setup.client, started.body.requestId);
    expect(job.status).toBe("FAILED");
    expect(job.error).toBe("Video 2 is not a video ffmpeg can read");
  });
});

describe("merges without a local ffmpeg (FFMPEG_PATH=off)", () => {
  it("go to fal when it has a key, with fal's field names", async () => {
    const fal = await startFakeFal();
    const setup = await serverWith({
      FFMPEG_PATH: "off",
      FAL_KEY: fal.key,
      FAL_QUEUE_URL: fal.url,
      OUTBOUND_ALLOW_HOSTS: new URL(fal.url).host,
      PROVIDER_POLL_MS: "30",
    });
    try {
      const started = await setup.run("merge-videos", {
        video1: setup.video1,
        video2: setup.video2,
      });
      expect(started.body.endpoint).toBe("fal-ai/ffmpeg-api/merge-videos");
      await waitForJob(setup.client, started.body.requestId);
      expect(fal.jobs.at(-1)?.input).toEqual({
        video_urls: [setup.video1, setup.video2],
      });
    } finally {
      await setup.server.close();
      await fal.close();
    }
  }, 120_000);

  it("are stood in for by the offline provider with no key", async () => {
    const setup = await serverWith({ FFMPEG_PATH: "off" });
    try {
      expect((await setup.server.ctx.generation()).providers.ffmpeg).toBeNull();
      const started = await setup.run("merge-videos", {
        video1: setup.video1,
        video2: setup.video2,
      });
      expect(started.body.endpoint).toBe("local/merge-videos");
      const job = await waitForJob(setup.client, started.body.requestId);
      expect(job.status).toBe("COMPLETED");
      // The stand-in's own 2-second clip, not the 3.5 s the inputs add up to.
      expect((await probeUrl(String(job.outputs?.mergedVideo))).duration).toBeCloseTo(2, 1);
    } finally {
      await setup.server.close();
    }
  }, 120_000);

  it("a FFMPEG_PATH that is not an executable stops the start-up, naming the variable", () => {
    const config = (FFMPEG_PATH: string) => () =>
      loadConfig({ DATA_DIR: dir, FFMPEG_PATH, AUTH_SECRET: "x".repeat(32) });
    expect(config("/nowhere/ffmpeg")).toThrow(ConfigError);
    expect(config("/nowhere/ffmpeg")).toThrow(
      'FFMPEG_PATH — must be the path of an ffmpeg executable, or "off"',
    );
    expect(config(dir)).toThrow(ConfigError);
    expect(config(ffmpeg)().generation.ffmpegPath).toBe(ffmpeg);
  });
});
