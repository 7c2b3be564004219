import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createOpenAIProvider,
  OPENAI_USER_MESSAGES as MSG,
  type OpenAIProviderOptions,
  OpenAIResultLostError,
} from "../src/providers/openai/openai-provider.ts";
import {
  type GenerationProvider,
  type NodeRun,
  ProviderError,
  SubmitOutcomeUnknownError,
} from "../src/providers/provider.ts";
import { OutboundFetchError } from "../src/providers/safe-fetch.ts";
import {
  type FakeFile,
  type FakeOpenAI,
  type FakeOpenAIFault,
  type FakeOpenAIRoute,
  startFakeOpenAI,
} from "./fakes/openai-server.ts";
import { pngBytes } from "./helpers/files.ts";

let oa: FakeOpenAI;
let inputPng: Buffer;
const fetched: string[] = [];
beforeAll(async () => {
  oa = await startFakeOpenAI();
  inputPng = await pngBytes(40, 30);
});
afterAll(() => oa.close());

const VIDEO = "v1/videos";
const IMAGE = "gpt-image-1";
const VIDEO_PORTS = [
  { id: "video", type: "video" },
  { id: "capturedFrame", type: "image" },
];
const IMAGE_PORTS = [{ id: "image", type: "image" }];
const url = (name: string) => `https://media.example/in/${name}`;

/** The engine's fetchInput stand-in: serves a PNG for any URL and records what was asked. */
const fetchInput = async (u: string) => {
  fetched.push(u);
  return { bytes: new Uint8Array(inputPng), contentType: "image/png" };
};
const provider = (extra: Partial<OpenAIProviderOptions> = {}) =>
  createOpenAIProvider({ key: oa.key, baseUrl: oa.url, fetchInput, ...extra });
const run = (nodeType: string, endpoint: string, inputs: NodeRun["inputs"], params = {}) => ({
  nodeType,
  endpoint,
  inputs,
  params,
});
const build = (r: NodeRun) => createOpenAIProvider({ key: "k" }).buildInput(r);
const imageRun = (inputs: NodeRun["inputs"] = {}, params = {}) =>
  run("gpt-image", IMAGE, { prompt: "a red fox", ...inputs }, params);
const videoRun = (inputs: NodeRun["inputs"] = {}, params = {}) =>
  run("sora-video", VIDEO, { prompt: "waves at dusk", ...inputs }, { size: "1280x720", ...params });
const submitRun = (r: NodeRun, p: GenerationProvider = provider()) =>
  p.submit({ endpoint: r.endpoint, input: p.buildInput(r), idempotencyKey: "job" });

/** Runs `fn` and returns how many calls a route received meanwhile. */
async function callsDuring(route: FakeOpenAIRoute, fn: () => Promise<unknown>): Promise<number> {
  const before = oa.counters.calls[route];
  await fn();
  return oa.counters.calls[route] - before;
}

/** The error a promise rejects with; never carrying the key. */
async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  const e = err as ProviderError;
  expect(`${e.message} ${e.options.userMessage ?? ""}`).not.toContain(oa.key);
  return e;
}

/** Submits a video and polls (once per scripted step) until COMPLETED. */
async function completedVideo(p: GenerationProvider = provider()) {
  const { requestId } = await submitRun(videoRun(), p);
  for (let i = 0; i < 10 && (await p.status(VIDEO, requestId)).status !== "COMPLETED"; i++);
  return requestId;
}

describe("openai buildInput", () => {
  const full = {
    prompt: "typed",
    imageSize: "1536x1024",
    quality: "high",
    background: "transparent",
    inputFidelity: "low",
    numImages: 2,
    outputFormat: "webp",
  };

  it("gpt-image text: every parameter mapped, the connected prompt wins, absent ones omitted", () => {
    expect(build(imageRun({}, full))).toStrictEqual({
      model: IMAGE,
      prompt: "a red fox",
      n: 2,
      size: "1536x1024",
      quality: "high",
      background: "transparent",
      output_format: "webp",
    });
    const typed = run("gpt-image", "gpt-image-1-mini", { prompt: " " }, { prompt: "hi" });
    expect(build(typed)).toStrictEqual({ model: "gpt-image-1-mini", prompt: "hi" });
  });

  it("gpt-image edit: image URLs and input_fidelity", () => {
    const images = [url("a.png"), url("b.jpg")];
    expect(
      build(imageRun({ image: images }, { inputFidelity: "high", numImages: 1 })),
    ).toStrictEqual({
      model: IMAGE,
      prompt: "a red fox",
      n: 1,
      image: images,
      input_fidelity: "high",
    });
  });

  it("sora-video: prompt, model, seconds, size, input_reference; bare when absent", () => {
    const params = { prompt: "", model: "sora-2-pro", seconds: "8", size: "1792x1024" };
    expect(build(videoRun({ image: url("i.png") }, params))).toStrictEqual({
      prompt: "waves at dusk",
      model: "sora-2-pro",
      seconds: "8",
      size: "1792x1024",
      input_reference: url("i.png"),
    });
    expect(build(run("sora-video", VIDEO, {}, { prompt: "typed", seconds: 4 }))).toStrictEqual({
      prompt: "typed",
      seconds: "4",
    });
    expect(build(run("sora-video", "sora-2", {}, { prompt: "x" }))).toMatchObject({
      model: "sora-2",
    });
  });

  it("an empty prompt or a non-OpenAI endpoint is fatal", () => {
    const noPrompt = { kind: "fatal", options: { userMessage: MSG.missingPrompt } };
    expect(() => build(run("gpt-image", IMAGE, {}, { prompt: " " }))).toThrow(
      expect.objectContaining(noPrompt),
    );
    expect(() => build(run("gpt-image", "fal-ai/gpt-image-1/text-to-image", {}, {}))).toThrow(
      expect.objectContaining({ options: { userMessage: MSG.unknownEndpoint } }),
    );
  });
});

describe("openai images", () => {
  it("generates synchronously: one call, COMPLETED at once, decodable bytes on the image port", async () => {
    const p = provider();
    const r = imageRun({}, { numImages: 2, outputFormat: "webp", quality: "low" });
    let requestId = "";
    const calls = await callsDuring("generations", async () => {
      ({ requestId } = await submitRun(r, p));
    });
    expect(calls).toBe(1);
    expect(oa.requests.at(-1)).toMatchObject({
      method: "POST",
      path: "/v1/images/generations",
      authorized: true,
      body: { model: IMAGE, prompt: "a red fox", n: 2, quality: "low", output_format: "webp" },
    });
    expect(await p.status(IMAGE, requestId)).toMatchObject({ status: "COMPLETED" });
    const result = await p.result(IMAGE, requestId, { outputs: IMAGE_PORTS });
    expect(result.media).toHaveLength(2);
    for (const media of result.media) {
      expect(media).toMatchObject({ output: "image", contentType: "image/webp" });
      const meta = await sharp(media.bytes).metadata();
      expect(meta).toMatchObject({ format: "webp", width: 8, height: 8 });
    }
    expect(JSON.stringify(result.raw)).toMatch(/base64 chars/);
  });

  it("edits: inputs read through fetchInput, sent as multipart `image` / `image[]`", async () => {
    const p = provider();
    fetched.length = 0;
    const two = imageRun({ image: [url("a.png"), url("b.png")] }, { inputFidelity: "high" });
    const { requestId } = await submitRun(two, p);
    expect(fetched).toEqual([url("a.png"), url("b.png")]);
    const sent = oa.requests.at(-1);
    expect(sent?.path).toBe("/v1/images/edits");
    expect(sent?.contentType).toMatch(/^multipart\/form-data/);
    const body = sent?.body as Record<string, unknown>;
    expect(body).toMatchObject({ model: IMAGE, prompt: "a red fox", input_fidelity: "high" });
    const files = body["image[]"] as FakeFile[];
    expect(files.map((f) => [f.type, f.size])).toEqual([
      ["image/png", inputPng.length],
      ["image/png", inputPng.length],
    ]);
    expect((await sharp(files[0]?.bytes).metadata()).width).toBe(40);
    const result = await p.result(IMAGE, requestId, { outputs: IMAGE_PORTS });
    expect((await sharp(result.media[0]?.bytes).metadata()).format).toBe("png");

    await submitRun(imageRun({ image: url("one.png") }), p);
    const one = oa.requests.at(-1)?.body as Record<string, unknown>;
    expect(one.image).toMatchObject({ type: "image/png" });
    expect(one["image[]"]).toBeUndefined();
  });

  it("an input that cannot be read fails before anything is sent", async () => {
    const failing = (err: Error) =>
      provider({
        fetchInput: async () => {
          throw err;
        },
      });
    const edit = imageRun({ image: url("x.png") });
    const calls = await callsDuring("edits", async () => {
      const slow = await failure(submitRun(edit, failing(new OutboundFetchError("timeout", "t"))));
      expect(slow.kind).toBe("retryable");
      const gone = new OutboundFetchError("http_error", "gone", 404);
      expect(await failure(submitRun(edit, failing(gone)))).toMatchObject({
        kind: "fatal",
        options: { userMessage: MSG.input },
      });
    });
    expect(calls).toBe(0);
  });

  it("an answer without images is FAILED; a lost answer asks for a rerun", async () => {
    oa.fault("generations", { kind: "no_images" });
    const p = provider();
    const { requestId } = await submitRun(imageRun(), p);
    expect(await p.status(IMAGE, requestId)).toMatchObject({
      status: "FAILED",
      error: MSG.noImage,
    });
    expect((await failure(p.result(IMAGE, requestId))).kind).toBe("fatal");

    const other = provider();
    const lost = await failure(other.result(IMAGE, requestId));
    expect(lost).toBeInstanceOf(OpenAIResultLostError);
    expect(lost).toMatchObject({ kind: "retryable", resultLost: true });
    const done = await submitRun(imageRun(), p);
    await p.cancel(IMAGE, done.requestId);
    expect(await failure(p.result(IMAGE, done.requestId))).toBeInstanceOf(OpenAIResultLostError);
  });

  const unknown = (reason: string) => ({ kind: "fatal", reason, outcomeUnknown: true });
  it.each<[string, FakeOpenAIFault, object]>([
    ["500", { kind: "http", status: 500 }, { kind: "retryable", options: { status: 500 } }],
    ["503", { kind: "http", status: 503 }, { kind: "retryable", options: { status: 503 } }],
    ["502", { kind: "http", status: 502 }, unknown("server_error")],
    ["504", { kind: "http", status: 504 }, unknown("timeout")],
    ["hang", { kind: "hang" }, unknown("timeout")],
    ["reset", { kind: "reset" }, unknown("connection_lost")],
    ["truncated", { kind: "truncated" }, unknown("connection_lost")],
    ["malformed JSON", { kind: "malformed" }, unknown("bad_answer")],
    ["429", { kind: "rate_limit" }, { kind: "rate_limited", options: { retryAfterMs: 7000 } }],
    [
      "400 content policy",
      { kind: "bad_request" },
      {
        kind: "fatal",
        options: { status: 400, userMessage: expect.stringMatching(/safety system/) },
      },
    ],
  ])("image submit %s", async (_name, fault, expected) => {
    oa.fault("generations", fault);
    let err: ProviderError | undefined;
    const calls = await callsDuring("generations", async () => {
      err = await failure(submitRun(imageRun(), provider({ imageTimeoutMs: 300 })));
    });
    expect(err).toMatchObject(expected);
    expect(err instanceof SubmitOutcomeUnknownError).toBe("outcomeUnknown" in expected);
    expect(calls).toBe(1);
  });
});

describe("openai video", () => {
  it("creates once, maps queued → in_progress → completed, downloads video and thumbnail", async () => {
    const p = provider();
    oa.script("next", [
      { status: "queued" },
      { status: "in_progress", progress: 33.4 },
      { status: "mystery" },
      { status: "completed" },
    ]);
    let requestId = "";
    const calls = await callsDuring("create", async () => {
      ({ requestId } = await submitRun(videoRun({}, { model: "sora-2", seconds: "4" }), p));
    });
    expect(calls).toBe(1);
    expect(requestId).toMatch(/^video_/);
    expect(oa.requests.at(-1)).toMatchObject({
      path: "/v1/videos",
      contentType: "application/json",
      authorized: true,
      body: { prompt: "waves at dusk", model: "sora-2", seconds: "4", size: "1280x720" },
    });
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await p.status(VIDEO, requestId));
    expect(seen.map((s) => [s.status, s.progress])).toEqual([
      ["IN_QUEUE", null],
      ["IN_PROGRESS", 33],
      ["IN_PROGRESS", 0],
      ["COMPLETED", null],
    ]);
    const downloads = { ...oa.counters.downloads };
    const result = await p.result(VIDEO, requestId, { outputs: VIDEO_PORTS });
    expect(result.media.map((m) => [m.output, m.contentType])).toEqual([
      ["video", "video/webm"],
      ["capturedFrame", "image/png"],
    ]);
    const [video, frame] = result.media;
    expect(Buffer.from(video?.bytes ?? []).readUInt32BE(0)).toBe(0x1a45dfa3); // EBML: WebM
    expect((await sharp(frame?.bytes).metadata()).format).toBe("png");
    expect(oa.counters.downloads.video).toBe((downloads.video ?? 0) + 1);
    expect(oa.counters.downloads.thumbnail).toBe((downloads.thumbnail ?? 0) + 1);
    expect(oa.requests.at(-1)).toMatchObject({ query: "?variant=thumbnail", authorized: true });

    const bare = await p.result(VIDEO, requestId);
    expect(bare.media.map((m) => m.output)).toEqual(["video"]);
  });

  it("image to video: input_reference read, cropped to the size, sent as multipart", async () => {
    fetched.length = 0;
    const p = provider();
    await submitRun(videoRun({ image: url("start.png") }, { size: "720x1280" }), p);
    expect(fetched).toEqual([url("start.png")]);
    const sent = oa.requests.at(-1);
    expect(sent?.contentType).toMatch(/^multipart\/form-data/);
    const body = sent?.body as Record<string, unknown>;
    expect(body).toMatchObject({ prompt: "waves at dusk", size: "720x1280" });
    const ref = body.input_reference as FakeFile;
    const meta = await sharp(ref.bytes).metadata();
    expect([ref.type, meta.width, meta.height]).toEqual(["image/png", 720, 1280]);
  });

  it("FAILED carries OpenAI's message; result refuses failed and unfinished videos", async () => {
    const p = provider();
    const error = { code: "moderation_blocked", message: "Your video was blocked by moderation." };
    oa.script("next", [{ status: "failed", error }]);
    const { requestId } = await submitRun(videoRun(), p);
    expect(await p.status(VIDEO, requestId)).toMatchObject({
      status: "FAILED",
      error: error.message,
    });
    expect(await failure(p.result(VIDEO, requestId))).toMatchObject({
      kind: "fatal",
      options: { userMessage: error.message },
    });
    oa.script("next", [{ status: "failed", error: { code: "x", message: "see https://x.y/z" } }]);
    const linked = await submitRun(videoRun(), p);
    expect((await p.status(VIDEO, linked.requestId)).error).toBe(MSG.failed);
    const running = await submitRun(videoRun(), p);
    expect((await failure(p.result(VIDEO, running.requestId))).kind).toBe("retryable");
  });

  it("a content redirect to another origin is followed without the key", async () => {
    const p = provider();
    const requestId = await completedVideo(p);
    oa.fault("content", { kind: "redirect" });
    const result = await p.result(VIDEO, requestId);
    expect(Buffer.from(result.media[0]?.bytes ?? []).readUInt32BE(0)).toBe(0x1a45dfa3);
    const cdn = oa.requests.filter((r) => r.path.startsWith("/cdn/")).at(-1);
    expect(cdn?.authorized).toBe(false);
  });

  it.each<[string, FakeOpenAIFault, string]>([
    ["503", { kind: "http", status: 503 }, "retryable"],
    ["429", { kind: "rate_limit", retryAfter: "2" }, "rate_limited"],
    ["hang", { kind: "hang" }, "retryable"],
    ["reset", { kind: "reset" }, "retryable"],
    ["truncated", { kind: "truncated" }, "retryable"],
  ])("content download %s → %s", async (_name, fault, kind) => {
    const p = provider({ downloadTimeoutMs: 300 });
    const requestId = await completedVideo(p);
    oa.fault("content", fault);
    expect((await failure(p.result(VIDEO, requestId, { outputs: VIDEO_PORTS }))).kind).toBe(kind);
  });

  it("a video over the size cap is refused", async () => {
    const requestId = await completedVideo();
    const err = await failure(provider({ maxVideoBytes: 100 }).result(VIDEO, requestId));
    expect(err).toMatchObject({ kind: "fatal", options: { userMessage: MSG.tooLarge } });
  });

  const unknown = (reason: string) => ({ kind: "fatal", reason, outcomeUnknown: true });
  const fatal = (userMessage: unknown, status: number) => ({
    kind: "fatal",
    options: { status, userMessage },
  });
  it.each<[string, FakeOpenAIFault, object]>([
    ...([500, 502, 503] as const).map((status): [string, FakeOpenAIFault, object] => [
      `HTTP ${status}`,
      { kind: "http", status },
      { ...unknown("server_error"), options: expect.objectContaining({ status }) },
    ]),
    ["HTTP 504", { kind: "http", status: 504 }, unknown("timeout")],
    ["hang", { kind: "hang" }, unknown("timeout")],
    ["truncated", { kind: "truncated" }, unknown("connection_lost")],
    ["reset", { kind: "reset" }, unknown("connection_lost")],
    ["malformed JSON", { kind: "malformed" }, unknown("bad_answer")],
    ["2xx without id", { kind: "no_id" }, unknown("bad_answer")],
    [
      "429 Retry-After",
      { kind: "rate_limit" },
      { kind: "rate_limited", options: { retryAfterMs: 7000, status: 429 } },
    ],
    [
      "429 retry-after-ms",
      { kind: "rate_limit", retryAfterMs: "1500" },
      { kind: "rate_limited", options: { retryAfterMs: 1500 } },
    ],
    [
      "429 x-ratelimit-reset-requests",
      { kind: "rate_limit", resetRequests: "6m0.5s" },
      { kind: "rate_limited", options: { retryAfterMs: 360_500 } },
    ],
    ["429 insufficient_quota", { kind: "quota" }, fatal(MSG.quota, 429)],
    [
      "400 content policy",
      { kind: "bad_request" },
      fatal(expect.stringMatching(/^Your request was rejected/), 400),
    ],
    [
      "400 with a URL",
      { kind: "bad_request", message: "See https://x.example/a" },
      fatal(MSG.failed, 400),
    ],
    ["403 unverified organization", { kind: "forbidden" }, fatal(MSG.unverified, 403)],
  ])("video submit %s", async (_name, fault, expected) => {
    oa.fault("create", fault);
    let err: ProviderError | undefined;
    const calls = await callsDuring("create", async () => {
      err = await failure(submitRun(videoRun(), provider({ timeoutMs: 300 })));
    });
    expect(err).toMatchObject(expected);
    expect(err instanceof SubmitOutcomeUnknownError).toBe("outcomeUnknown" in expected);
    expect(calls).toBe(1);
  });

  // A whole-response fault is not an answer, so the script does not move; a mangled answer
  // (truncated, malformed) was served, so the next poll sees the following step.
  it.each<[string, string, FakeOpenAIFault, string]>([
    ["500", "retryable", { kind: "http", status: 500 }, "IN_QUEUE"],
    ["503", "retryable", { kind: "http", status: 503 }, "IN_QUEUE"],
    ["429", "rate_limited", { kind: "rate_limit", retryAfter: "3" }, "IN_QUEUE"],
    ["hang", "retryable", { kind: "hang" }, "IN_QUEUE"],
    ["reset", "retryable", { kind: "reset" }, "IN_QUEUE"],
    ["truncated", "retryable", { kind: "truncated" }, "IN_PROGRESS"],
    ["malformed JSON", "retryable", { kind: "malformed" }, "IN_PROGRESS"],
  ])("status %s → %s", async (_n, kind, fault, next) => {
    const p = provider({ timeoutMs: 300 });
    const { requestId } = await submitRun(videoRun(), p);
    oa.fault("video", fault);
    const err = await failure(p.status(VIDEO, requestId));
    expect(err.kind).toBe(kind);
    if (kind === "rate_limited") expect(err.options.retryAfterMs).toBe(3000);
    expect((await p.status(VIDEO, requestId)).status).toBe(next);
    expect(oa.counters.polls[requestId]).toBe(2);
  });

  it("cancel: a running video is a no-op, a finished one is deleted, a gone one is quiet", async () => {
    const p = provider({ timeoutMs: 300 });
    const { requestId } = await submitRun(videoRun(), p);
    await expect(p.cancel(VIDEO, requestId)).resolves.toBeUndefined();
    const done = await completedVideo(p);
    const deletes = await callsDuring("delete", () => p.cancel(VIDEO, done));
    expect(deletes).toBe(1);
    expect(await failure(p.status(VIDEO, done))).toMatchObject({
      kind: "fatal",
      options: { status: 404, userMessage: MSG.lost },
    });
    await expect(p.cancel(VIDEO, done)).resolves.toBeUndefined();
    oa.fault("delete", { kind: "http", status: 503 });
    expect((await failure(p.cancel(VIDEO, requestId))).kind).toBe("retryable");
    oa.fault("delete", { kind: "hang" });
    expect((await failure(p.cancel(VIDEO, requestId))).kind).toBe("retryable");
  });
});

describe("openai keys and transport", () => {
  it("a wrong key is fatal with a safe message that never holds either key", async () => {
    const wrong = provider({ key: "sk-wrong-secret-123" });
    for (const call of [submitRun(videoRun(), wrong), submitRun(imageRun(), wrong)]) {
      const err = await failure(call);
      expect(err).toMatchObject({
        kind: "fatal",
        options: { status: 401, userMessage: MSG.keyRejected },
      });
      expect(`${err.message} ${err.options.userMessage}`).not.toContain("sk-wrong-secret-123");
    }
  });

  it("a 400 text holding the key is replaced", async () => {
    oa.fault("create", { kind: "bad_request", message: `Key ${oa.key} is not allowed here.` });
    const err = await failure(submitRun(videoRun()));
    expect(err.options.userMessage).toBe(MSG.failed);
  });

  it("connection refused is retryable: the request provably never reached OpenAI", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const p = provider({ baseUrl: `http://127.0.0.1:${port}/v1` });
    for (const call of [submitRun(videoRun(), p), submitRun(imageRun(), p)]) {
      const err = await failure(call);
      expect(err).not.toBeInstanceOf(SubmitOutcomeUnknownError);
      expect(err.kind).toBe("retryable");
    }
  });

  it("ids that are not OpenAI's are refused before any call", async () => {
    const p = provider();
    expect((await failure(p.status(VIDEO, "../x"))).kind).toBe("fatal");
    expect((await failure(p.result("fal-ai/sora-2/text-to-video", "video_1"))).kind).toBe("fatal");
  });
});
