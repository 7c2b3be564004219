import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import {
  OPENAI_USER_MESSAGES as MSG,
  OpenAIResultLostError,
} from "../src/providers/openai/openai-provider.ts";
import { type ProviderError, SubmitOutcomeUnknownError } from "../src/providers/provider.ts";
import { OutboundFetchError } from "../src/providers/safe-fetch.ts";
import type { FakeOpenAIFault } from "./fakes/openai-server.ts";
import {
  callsDuring,
  completedVideo,
  failure,
  IMAGE,
  imageRun,
  oa,
  provider,
  submitRun,
  url,
  useFakeOpenAI,
  VIDEO,
  VIDEO_PORTS,
  videoRun,
} from "./helpers/openai-harness.ts";

// Fault handling: failed inputs, HTTP and transport faults, lost answers, keys.
useFakeOpenAI();

describe("openai images", () => {
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
