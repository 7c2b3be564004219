import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type GenerationProvider,
  type NodeRun,
  ProviderError,
  SubmitOutcomeUnknownError,
} from "../src/providers/provider.ts";
import {
  createRunwayProvider,
  RUNWAY_MIN_POLL_MS,
  RUNWAY_USER_MESSAGES,
  type RunwayProviderOptions,
} from "../src/providers/runway/runway-provider.ts";
import { createSafeFetcher } from "../src/providers/safe-fetch.ts";
import { type FakeRunway, type FakeRunwayFault, startFakeRunway } from "./fakes/runway-server.ts";

let rw: FakeRunway;
beforeAll(async () => {
  rw = await startFakeRunway();
});
afterAll(() => rw.close());

const I2V = "v1/image_to_video";
const T2I = "v1/text_to_image";
const VIDEO_PORTS = [
  { id: "video", type: "video" },
  { id: "capturedFrame", type: "image" },
];
const IMAGE_URL = "https://media.example/in/cat.png";

function provider(extra: Partial<RunwayProviderOptions> = {}) {
  return createRunwayProvider({
    key: rw.key,
    baseUrl: rw.url,
    allowMediaHosts: [new URL(rw.url).host],
    ...extra,
  });
}
const submit = (p: GenerationProvider, endpoint = I2V) =>
  p.submit({ endpoint, input: { model: "gen4_turbo" }, idempotencyKey: "k" });
const build = (nodeType: string, inputs: NodeRun["inputs"], params: NodeRun["params"]) =>
  createRunwayProvider({ key: "k" }).buildInput({ nodeType, endpoint: "", inputs, params });
/** Runs `fn` and returns how many creates the fake received for `endpoint` meanwhile. */
async function createsDuring(endpoint: string, fn: () => Promise<unknown>): Promise<number> {
  const before = rw.counters.creates[endpoint] ?? 0;
  await fn();
  return (rw.counters.creates[endpoint] ?? 0) - before;
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  const { message, options } = err as ProviderError;
  expect(`${message} ${options.userMessage ?? ""}`).not.toContain(rw.key);
  return err as ProviderError;
}

/** Submits and polls (once per scripted step) until COMPLETED. */
async function succeededTask(p: GenerationProvider, endpoint = I2V) {
  const { requestId } = await submit(p, endpoint);
  for (let i = 0; i < 10 && (await p.status(endpoint, requestId)).status !== "COMPLETED"; i++);
  return requestId;
}

describe("runway buildInput", () => {
  const vp = { prompt: "", model: "gen4_turbo", duration: 5, ratio: "1280:720" };
  const video = "https://m.example/v.mp4";

  it("runway-video: image → promptImage; the connected prompt wins; absent optionals omitted", () => {
    const full = build("runway-video", { prompt: "go", image: IMAGE_URL }, { ...vp, seed: 42 });
    const body = { model: "gen4_turbo", promptImage: IMAGE_URL, ratio: "1280:720", duration: 5 };
    expect(full).toStrictEqual({ ...body, promptText: "go", seed: 42 });
    const bare = build("runway-video", { image: IMAGE_URL }, { ...vp, seed: null });
    expect(bare).toStrictEqual(body);
    const typed = build("runway-video", { prompt: " ", image: IMAGE_URL }, { ...vp, prompt: "hi" });
    expect(typed.promptText).toBe("hi");
  });

  it("runway-aleph: gen4_aleph takes references, aleph2 a keyframe at the start", () => {
    const inputs = { prompt: "snow", video1: video, referenceImages: [IMAGE_URL] };
    const params = { prompt: "", ratio: "960:960", seed: 7 };
    const common = { videoUri: video, promptText: "snow", ratio: "960:960" };
    expect(build("runway-aleph", inputs, { ...params, model: "gen4_aleph" })).toStrictEqual({
      ...common,
      model: "gen4_aleph",
      seed: 7,
      references: [{ type: "image", uri: IMAGE_URL }],
    });
    expect(build("runway-aleph", inputs, { ...params, model: "aleph2" })).toStrictEqual({
      ...common,
      model: "aleph2",
      seed: 7,
      keyframes: [{ at: 0, uri: IMAGE_URL }],
    });
    const noRefs = { prompt: "snow", video1: video };
    const bare = build("runway-aleph", noRefs, { ...params, model: "aleph2", seed: null });
    expect(bare).toStrictEqual({ ...common, model: "aleph2" });
  });

  it("runway-image: references as { uri }, moderation setting, seed", () => {
    const refs = [IMAGE_URL, "https://media.example/in/dog.png"];
    const params = { prompt: "@a and @b", model: "gen4_image", ratio: "1024:1024", seed: 3 };
    expect(
      build("runway-image", { image: refs }, { ...params, publicFigureThreshold: "low" }),
    ).toStrictEqual({
      model: "gen4_image",
      promptText: "@a and @b",
      ratio: "1024:1024",
      referenceImages: refs.map((uri) => ({ uri })),
      seed: 3,
      contentModeration: { publicFigureThreshold: "low" },
    });
  });

  it("a missing required media input or an unknown node type is fatal", () => {
    const missing = { kind: "fatal", options: { userMessage: RUNWAY_USER_MESSAGES.missingInput } };
    expect(() => build("runway-video", {}, vp)).toThrow(expect.objectContaining(missing));
    expect(() => build("flux-pro", {}, {})).toThrow(ProviderError);
  });
});

describe("runway provider: happy path", () => {
  it("creates once, maps PENDING → THROTTLED → RUNNING → SUCCEEDED, and the video to its port", async () => {
    const p = provider();
    rw.script("next", [
      { status: "PENDING" },
      { status: "THROTTLED" },
      { status: "RUNNING", progress: 0.4 },
      { status: "SUCCEEDED" },
    ]);
    const input = build("runway-video", { image: IMAGE_URL }, { model: "gen4_turbo", duration: 5 });
    let requestId = "";
    const creates = await createsDuring(I2V, async () => {
      ({ requestId } = await p.submit({ endpoint: I2V, input, idempotencyKey: "job-1" }));
    });
    expect(creates).toBe(1);
    expect(rw.tasks.at(-1)).toEqual({ id: requestId, endpoint: I2V, body: input });
    expect(rw.requests.at(-1)).toMatchObject({
      method: "POST",
      authorized: true,
      version: "2024-11-06",
    });

    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await p.status(I2V, requestId));
    expect(seen.map((s) => [s.status, s.progress])).toEqual([
      ["IN_QUEUE", null],
      ["IN_QUEUE", null],
      ["IN_PROGRESS", 40],
      ["COMPLETED", null],
    ]);
    expect(seen[1]?.logs).toEqual([
      expect.objectContaining({ message: RUNWAY_USER_MESSAGES.throttled }),
    ]);
    expect(rw.counters.polls[requestId]).toHaveLength(4);

    const result = await p.result(I2V, requestId, { outputs: VIDEO_PORTS });
    expect(result.media).toEqual([{ output: "video", url: rw.mediaUrl(`${requestId}.mp4`) }]);
    const fetcher = createSafeFetcher({ allowHosts: [new URL(rw.url).host] });
    const file = await fetcher.fetchBytes(result.media[0]?.url ?? "");
    await fetcher.close();
    expect(Buffer.from(file.bytes.subarray(4, 8)).toString()).toBe("ftyp");
  });

  it("maps a text_to_image output to the first image port (or `image` without ports)", async () => {
    const p = provider();
    const requestId = await succeededTask(p, T2I);
    const withPorts = await p.result(T2I, requestId, { outputs: [{ id: "image", type: "image" }] });
    expect(withPorts.media).toEqual([{ output: "image", url: rw.mediaUrl(`${requestId}.png`) }]);
    expect((await p.result(T2I, requestId)).media[0]?.output).toBe("image");
  });

  it("the fake stamps each poll, so a scheduler's spacing can be asserted", async () => {
    let clock = 1_000;
    const timed = await startFakeRunway({ now: () => clock });
    const p = createRunwayProvider({ key: timed.key, baseUrl: timed.url });
    const { requestId } = await submit(p);
    for (let i = 0; i < 3; i++, clock += RUNWAY_MIN_POLL_MS) await p.status(I2V, requestId);
    await timed.close();
    const stamps = timed.counters.polls[requestId] ?? [];
    expect(stamps).toEqual([1_000, 6_000, 11_000]);
    expect(stamps.slice(1).every((t, i) => t - (stamps[i] ?? 0) >= RUNWAY_MIN_POLL_MS)).toBe(true);
  });
});

describe("runway provider: submit faults never lead to a second create", () => {
  const unknown = (reason: string) => ({ kind: "fatal", reason, outcomeUnknown: true });
  const fatal = (userMessage: string) => ({ kind: "fatal", options: { status: 400, userMessage } });
  it.each<[string, FakeRunwayFault, object]>([
    ...([500, 502, 503, 504] as const).map((status): [string, FakeRunwayFault, object] => [
      `HTTP ${status}`,
      { kind: "http", status },
      { ...unknown("server_error"), options: expect.objectContaining({ status }) },
    ]),
    ["hang", { kind: "hang" }, unknown("timeout")],
    ["truncated body", { kind: "truncated" }, unknown("connection_lost")],
    ["connection reset", { kind: "reset" }, unknown("connection_lost")],
    ["malformed JSON", { kind: "malformed" }, unknown("bad_answer")],
    ["2xx without id", { kind: "no_id" }, unknown("bad_answer")],
    [
      "429",
      { kind: "rate_limit" },
      { kind: "rate_limited", options: { retryAfterMs: 7000, status: 429 } },
    ],
    ["400 plain text", { kind: "bad_request" }, fatal("The prompt image could not be read.")],
    ["400 structured", { kind: "bad_request", error: { issues: [] } }, fatal("Generation failed")],
    ["400 bare code", { kind: "bad_request", error: "INPUT.INVALID" }, fatal("Generation failed")],
    [
      "400 with a URL",
      { kind: "bad_request", error: "Cannot fetch https://x.example/a?sig=s" },
      fatal("Generation failed"),
    ],
  ])("%s", async (_name, fault, expected) => {
    rw.fault("create", fault);
    let err: ProviderError | undefined;
    const creates = await createsDuring(I2V, async () => {
      err = await failure(submit(provider({ timeoutMs: 300 })));
    });
    expect(err).toMatchObject(expected);
    expect(err instanceof SubmitOutcomeUnknownError).toBe("outcomeUnknown" in expected);
    expect(creates).toBe(1);
  });

  it("a 400 text that contains the key is replaced", async () => {
    rw.fault("create", { kind: "bad_request", error: `Key ${rw.key} has no credits left` });
    const err = await failure(submit(provider()));
    expect(err.options.userMessage).toBe(RUNWAY_USER_MESSAGES.failed);
  });

  it("a wrong key (401) and an unknown endpoint (404) are fatal with safe messages", async () => {
    const wrong = await failure(submit(provider({ key: "wrong-secret" })));
    expect(wrong).toMatchObject({
      kind: "fatal",
      options: { status: 401, userMessage: RUNWAY_USER_MESSAGES.keyRejected },
    });
    expect(wrong.message).not.toContain("wrong-secret");
    const missing = await failure(submit(provider(), "v1/no_such_thing"));
    expect(missing).toMatchObject({
      kind: "fatal",
      options: { userMessage: RUNWAY_USER_MESSAGES.unknownEndpoint },
    });
    expect((await failure(submit(provider(), "../v1/x"))).kind).toBe("fatal");
  });

  it("connection refused is retryable: the request provably never reached Runway", async () => {
    const closed: Server = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure(submit(provider({ baseUrl: `http://127.0.0.1:${port}` })));
    expect(err).not.toBeInstanceOf(SubmitOutcomeUnknownError);
    expect(err.kind).toBe("retryable");
  });

  it("the fake insists on the version header", async () => {
    const before = rw.counters.badVersion;
    const res = await fetch(`${rw.url}/${I2V}`, {
      method: "POST",
      headers: { authorization: `Bearer ${rw.key}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(400);
    expect(rw.counters.badVersion - before).toBe(1);
  });
});

describe("runway provider: task reads, results and cancel", () => {
  // A whole-response fault is not an answer, so the script does not move; a mangled answer
  // (truncated, malformed) was served, so the next poll sees the following step.
  it.each<[string, string, FakeRunwayFault, string]>([
    ["500", "retryable", { kind: "http", status: 500 }, "IN_QUEUE"],
    ["502", "retryable", { kind: "http", status: 502 }, "IN_QUEUE"],
    ["503", "retryable", { kind: "http", status: 503 }, "IN_QUEUE"],
    ["429", "rate_limited", { kind: "rate_limit", retryAfter: "3" }, "IN_QUEUE"],
    ["hang", "retryable", { kind: "hang" }, "IN_QUEUE"],
    ["reset", "retryable", { kind: "reset" }, "IN_QUEUE"],
    ["truncated", "retryable", { kind: "truncated" }, "IN_PROGRESS"],
    ["malformed JSON", "retryable", { kind: "malformed" }, "IN_PROGRESS"],
  ])("status %s → %s", async (_n, kind, fault, next) => {
    const p = provider({ timeoutMs: 300 });
    const { requestId } = await submit(p);
    rw.fault("task", fault);
    const err = await failure(p.status(I2V, requestId));
    expect(err.kind).toBe(kind);
    if (kind === "rate_limited") expect(err.options.retryAfterMs).toBe(3000);
    expect((await p.status(I2V, requestId)).status).toBe(next);
    expect(rw.counters.polls[requestId]).toHaveLength(2);
  });

  it("FAILED carries Runway's failure text, never a bare code; unknown statuses are not final", async () => {
    const p = provider();
    rw.script("next", [
      { status: "WARMING_UP" },
      { status: "FAILED", failure: "Your prompt was flagged.", failureCode: "SAFETY.INPUT.TEXT" },
    ]);
    const { requestId } = await submit(p);
    expect(await p.status(I2V, requestId)).toMatchObject({ status: "IN_PROGRESS", progress: null });
    expect(await p.status(I2V, requestId)).toMatchObject({
      status: "FAILED",
      error: "Your prompt was flagged.",
    });
    expect(await failure(p.result(I2V, requestId))).toMatchObject({
      kind: "fatal",
      options: { userMessage: "Your prompt was flagged." },
    });
    rw.script("next", [{ status: "FAILED", failure: "INTERNAL.BAD_OUTPUT.CODE01" }]);
    const coded = await submit(p);
    expect((await p.status(I2V, coded.requestId)).error).toBe(RUNWAY_USER_MESSAGES.failed);
    rw.fault("task", { kind: "failed" });
    expect((await p.status(I2V, coded.requestId)).error).toMatch(/moderation/);
  });

  it.each<[string, string, FakeRunwayFault, string | undefined]>([
    ["a private output URL", "fatal", { kind: "private_url" }, RUNWAY_USER_MESSAGES.failed],
    [
      "a non-http output URL",
      "fatal",
      { kind: "private_url", url: "file:///etc/passwd" },
      RUNWAY_USER_MESSAGES.failed,
    ],
    ["503", "retryable", { kind: "http", status: 503 }, undefined],
    ["429", "rate_limited", { kind: "rate_limit" }, undefined],
    ["malformed JSON", "retryable", { kind: "malformed" }, undefined],
    ["hang", "retryable", { kind: "hang" }, undefined],
  ])("result %s → %s", async (_n, kind, fault, userMessage) => {
    const p = provider({ timeoutMs: 300 });
    const requestId = await succeededTask(p);
    rw.fault("task", fault);
    const err = await failure(p.result(I2V, requestId, { outputs: VIDEO_PORTS }));
    expect(err.kind).toBe(kind);
    expect(err.options.userMessage).toBe(userMessage);
  });

  it("refuses the fake's own loopback URLs unless allow-listed, and unfinished results", async () => {
    const requestId = await succeededTask(provider());
    const strict = provider({ allowMediaHosts: [] });
    expect((await failure(strict.result(I2V, requestId))).kind).toBe("fatal");
    const { requestId: running } = await submit(provider());
    expect((await failure(provider().result(I2V, running))).kind).toBe("retryable");
  });

  it("cancels a running task; a finished one is deleted, and a gone one cancels quietly", async () => {
    const p = provider();
    const { requestId } = await submit(p);
    const before = rw.counters.deletes;
    await p.cancel(I2V, requestId);
    expect(rw.counters.deletes - before).toBe(1);
    expect((await p.status(I2V, requestId)).status).toBe("CANCELLED");
    expect(await failure(p.result(I2V, requestId))).toMatchObject({
      kind: "fatal",
      options: { userMessage: RUNWAY_USER_MESSAGES.cancelled },
    });

    const done = await succeededTask(p);
    await p.cancel(I2V, done);
    expect(await failure(p.status(I2V, done))).toMatchObject({
      kind: "fatal",
      options: { status: 404, userMessage: RUNWAY_USER_MESSAGES.lost },
    });
    await expect(p.cancel(I2V, done)).resolves.toBeUndefined();
  });

  it("cancel faults: 503 and hang retryable, 429 keeps Retry-After", async () => {
    const p = provider({ timeoutMs: 300 });
    const { requestId } = await submit(p);
    rw.fault("delete", { kind: "http", status: 503 });
    expect((await failure(p.cancel(I2V, requestId))).kind).toBe("retryable");
    rw.fault("delete", { kind: "hang" });
    expect((await failure(p.cancel(I2V, requestId))).kind).toBe("retryable");
    rw.fault("delete", { kind: "rate_limit", retryAfter: "11" });
    expect(await failure(p.cancel(I2V, requestId))).toMatchObject({
      kind: "rate_limited",
      options: { retryAfterMs: 11_000 },
    });
  });
});
