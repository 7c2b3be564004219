import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createFalProvider,
  FAL_USER_MESSAGES,
  type FalProviderOptions,
} from "../src/providers/fal/fal-provider.ts";
import { mapFalResult } from "../src/providers/fal/map-result.ts";
import {
  createFalWebhookVerifier,
  type FalWebhookVerification,
} from "../src/providers/fal/webhook.ts";
import {
  type GenerationProvider,
  ProviderError,
  SubmitOutcomeUnknownError,
} from "../src/providers/provider.ts";
import { createSafeFetcher } from "../src/providers/safe-fetch.ts";
import { type FakeFal, type FakeFault, startFakeFal } from "./fakes/fal-server.ts";

let fal: FakeFal;
let seq = 0;
beforeAll(async () => {
  fal = await startFakeFal();
});
afterAll(() => fal.close());

function provider(extra: Partial<FalProviderOptions> = {}) {
  const host = new URL(fal.url).host;
  return createFalProvider({
    key: fal.key,
    queueBaseUrl: fal.url,
    allowMediaHosts: [host],
    ...extra,
  });
}
const submit = (p: GenerationProvider, ep: string) =>
  p.submit({ endpoint: ep, input: {}, idempotencyKey: "k" });
/** A fresh endpoint id per test, so per-endpoint counters are the test's own. */
const endpoint = () => `fal-ai/app-${++seq}/dev`;

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  expect(String((err as Error).message)).not.toContain(fal.key);
  return err as ProviderError;
}

/** Submits, and polls (once per scripted step) until COMPLETED. */
async function completedJob(ep: string, p = provider()) {
  const { requestId } = await p.submit({
    endpoint: ep,
    input: { prompt: "x" },
    idempotencyKey: "k",
  });
  for (let i = 0; i < 10 && (await p.status(ep, requestId)).status !== "COMPLETED"; i++);
  return requestId;
}

describe("fal provider: happy path", () => {
  it("submits once, follows the scripted statuses, and maps the result media", async () => {
    const ep = endpoint();
    const p = provider();
    fal.script("next", [
      { status: "IN_QUEUE", position: 3 },
      { status: "IN_QUEUE", position: 1 },
      { status: "IN_PROGRESS", logs: ["step 1/28"] },
      { status: "COMPLETED", logs: ["done"] },
    ]);
    const webhookUrl = "https://atelier.example/api/hooks/fal/abc";
    const { requestId } = await p.submit({
      endpoint: ep,
      input: { prompt: "a cat" },
      webhookUrl,
      idempotencyKey: "job-1",
    });
    expect(fal.jobs.at(-1)).toEqual({
      requestId,
      endpoint: ep,
      input: { prompt: "a cat" },
      webhookUrl,
    });

    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await p.status(ep, requestId));
    expect(seen.map((s) => [s.status, s.queuePosition])).toEqual([
      ["IN_QUEUE", 3],
      ["IN_QUEUE", 1],
      ["IN_PROGRESS", null],
      ["COMPLETED", null],
    ]);
    expect(seen[2]?.logs).toEqual([
      expect.objectContaining({ message: "step 1/28", level: "INFO" }),
    ]);

    const result = await p.result(ep, requestId);
    expect(result.media).toEqual([
      { output: "image", url: fal.mediaUrl(`${requestId}.png`), contentType: "image/png" },
    ]);
    const fetcher = createSafeFetcher({ allowHosts: [new URL(fal.url).host] });
    const file = await fetcher.fetchBytes(result.media[0]?.url ?? "");
    await fetcher.close();
    expect(Buffer.from(file.bytes.subarray(1, 4)).toString()).toBe("PNG");
    expect(fal.counters.submits[ep]).toBe(1);
    expect(fal.counters.status[requestId]).toBe(4);
  });

  it("treats unknown status values as not final, and COMPLETED with error_type as FAILED", async () => {
    const ep = endpoint();
    fal.script("next", [
      { status: "WARMING_UP" },
      { status: "COMPLETED", errorType: "runner_disconnected" },
    ]);
    const { requestId } = await submit(provider(), ep);
    expect((await provider().status(ep, requestId)).status).toBe("IN_PROGRESS");
    expect(await provider().status(ep, requestId)).toMatchObject({
      status: "FAILED",
      error: FAL_USER_MESSAGES.failed,
    });
  });

  it("maps result shapes onto the node's ports", () => {
    const video = mapFalResult(
      {
        video: { url: "https://v3.fal.media/v.mp4" },
        thumbnail: { url: "https://v3.fal.media/t.png" },
      },
      [
        { id: "video", type: "video" },
        { id: "capturedFrame", type: "image" },
      ],
    );
    expect(video.media.map((m) => [m.output, m.url])).toEqual([
      ["video", "https://v3.fal.media/v.mp4"],
      ["capturedFrame", "https://v3.fal.media/t.png"],
    ]);
    const model = mapFalResult(
      { model_glb: { url: "https://x/m.glb" }, thumbnail: { url: "https://x/s.png" } },
      [
        { id: "model", type: "object" },
        { id: "snapshot", type: "image" },
      ],
    );
    expect(model.media.map((m) => m.output)).toEqual(["model", "snapshot"]);
    const audio = mapFalResult({
      audio_file: { url: "https://x/a.wav", content_type: "audio/wav" },
    });
    expect(audio.media).toEqual([
      { output: "audio", url: "https://x/a.wav", contentType: "audio/wav" },
    ]);
    expect(mapFalResult({ output: "hello" }, [{ id: "text", type: "text" }]).values).toEqual({
      text: "hello",
    });
    const inline = mapFalResult({ images: [{ url: "data:image/png;base64,iVBORw0K" }] });
    expect(inline.media[0]).toMatchObject({ output: "image", contentType: "image/png" });
    expect(inline.media[0]?.bytes?.[1]).toBe(0x50);
  });
});

describe("fal provider: submit faults never lead to a second submit", () => {
  const unknown = (reason: string) => ({ kind: "fatal", reason, outcomeUnknown: true });
  it.each<[string, FakeFault, object]>([
    ...([500, 502, 503, 504] as const).map((status): [string, FakeFault, object] => [
      `HTTP ${status}`,
      { kind: "http", status, errorType: "runner_scheduling_failure" },
      { ...unknown("server_error"), options: expect.objectContaining({ status }) },
    ]),
    ["hang", { kind: "hang" }, unknown("timeout")],
    ["truncated body", { kind: "truncated" }, unknown("connection_lost")],
    ["connection reset", { kind: "reset" }, unknown("connection_lost")],
    ["malformed JSON", { kind: "malformed" }, unknown("bad_answer")],
    [
      "429",
      { kind: "rate_limit" },
      { kind: "rate_limited", options: { retryAfterMs: 7000, status: 429 } },
    ],
    [
      "504 user timeout",
      { kind: "http", status: 504, userTimeout: true },
      { kind: "fatal", options: { status: 504, userMessage: FAL_USER_MESSAGES.timedOut } },
    ],
  ])("%s", async (_name, fault, expected) => {
    const ep = endpoint();
    fal.fault("submit", fault);
    const err = await failure(submit(provider({ timeoutMs: 300 }), ep));
    expect(err).toMatchObject(expected);
    expect(err instanceof SubmitOutcomeUnknownError).toBe("outcomeUnknown" in expected);
    expect(fal.counters.submits[ep]).toBe(1);
  });

  it("connection refused is retryable: the request provably never reached fal", async () => {
    const closed: Server = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const p = provider({ queueBaseUrl: `http://127.0.0.1:${port}` });
    const err = await failure(submit(p, endpoint()));
    expect(err).not.toBeInstanceOf(SubmitOutcomeUnknownError);
    expect(err.kind).toBe("retryable");
  });

  it("a wrong key is fatal and never echoed", async () => {
    const err = await failure(submit(provider({ key: "wrong-secret" }), endpoint()));
    expect(err).toMatchObject({
      kind: "fatal",
      options: { userMessage: FAL_USER_MESSAGES.keyRejected },
    });
    expect(err.message).not.toContain("wrong-secret");
  });
});

describe("fal provider: status, result and cancel faults", () => {
  // A whole-response fault is not an answer, so the script does not move; a mangled answer
  // (truncated, malformed) was served, so the next poll sees the following step.
  it.each<[string, string, FakeFault, string]>([
    ["500", "retryable", { kind: "http", status: 500 }, "IN_QUEUE"],
    [
      "503",
      "retryable",
      { kind: "http", status: 503, errorType: "runner_disconnected" },
      "IN_QUEUE",
    ],
    ["504 user timeout", "fatal", { kind: "http", status: 504, userTimeout: true }, "IN_QUEUE"],
    ["429", "rate_limited", { kind: "rate_limit", retryAfter: "3" }, "IN_QUEUE"],
    ["hang", "retryable", { kind: "hang" }, "IN_QUEUE"],
    ["truncated", "retryable", { kind: "truncated" }, "IN_PROGRESS"],
    ["malformed JSON", "retryable", { kind: "malformed" }, "IN_PROGRESS"],
  ])("status %s → %s", async (_n, kind, fault, next) => {
    const ep = endpoint();
    const p = provider({ timeoutMs: 300 });
    const { requestId } = await submit(p, ep);
    fal.fault("status", fault);
    const err = await failure(p.status(ep, requestId));
    expect(err.kind).toBe(kind);
    if (kind === "rate_limited") expect(err.options.retryAfterMs).toBe(3000);
    expect((await p.status(ep, requestId)).status).toBe(next);
    expect(fal.counters.status[requestId]).toBe(2);
  });

  it("a 422 result after COMPLETED is fatal with the detail text", async () => {
    const ep = endpoint();
    const detail = [
      { loc: ["body", "prompt"], msg: "Prompt is too long", type: "value_error" },
      { loc: ["body", "seed"], msg: "Seed must be positive", type: "value_error" },
    ];
    fal.script("next", [{ status: "COMPLETED" }], { status: 422, body: { detail } });
    const requestId = await completedJob(ep);
    const err = await failure(provider().result(ep, requestId));
    expect(err).toMatchObject({
      kind: "fatal",
      options: { status: 422, userMessage: "Prompt is too long; Seed must be positive" },
    });
  });

  it.each<[string, string, FakeFault, string | undefined]>([
    ["expired (404)", "fatal", { kind: "expired" }, FAL_USER_MESSAGES.expired],
    ["a private output URL", "fatal", { kind: "private_url" }, FAL_USER_MESSAGES.failed],
    [
      "a JSON 503",
      "fatal",
      { kind: "http", status: 503, errorType: "runner_disconnected" },
      FAL_USER_MESSAGES.failed,
    ],
    ["429", "rate_limited", { kind: "rate_limit" }, undefined],
    ["truncated", "retryable", { kind: "truncated" }, undefined],
    ["hang", "retryable", { kind: "hang" }, undefined],
  ])("result %s → %s", async (_n, kind, fault, userMessage) => {
    const ep = endpoint();
    const requestId = await completedJob(ep);
    fal.fault("result", fault);
    const err = await failure(provider({ timeoutMs: 300 }).result(ep, requestId));
    expect(err.kind).toBe(kind);
    expect(err.options.userMessage).toBe(userMessage);
  });

  it("a malformed result is retryable twice, then fatal", async () => {
    const ep = endpoint();
    const p = provider();
    const requestId = await completedJob(ep, p);
    fal.fault("result", { kind: "malformed" }, 3);
    const kinds = [];
    for (let i = 0; i < 3; i++) kinds.push((await failure(p.result(ep, requestId))).kind);
    expect(kinds).toEqual(["retryable", "retryable", "fatal"]);
  });

  it("cancels by owner/app, and a finished request cancels quietly", async () => {
    const ep = endpoint();
    const p = provider();
    const { requestId } = await submit(p, ep);
    await p.cancel(ep, requestId);
    expect(fal.counters.cancels).toBeGreaterThan(0);
    expect((await p.status(ep, requestId)).status).toBe("COMPLETED");
    expect((await failure(p.result(ep, requestId))).kind).toBe("fatal");

    const finishedEp = endpoint();
    const done = await completedJob(finishedEp, p);
    await expect(p.cancel(finishedEp, done)).resolves.toBeUndefined();
  });

  it("cancel faults: 503 retryable, 429 keeps Retry-After", async () => {
    const ep = endpoint();
    const p = provider();
    const { requestId } = await submit(p, ep);
    fal.fault("cancel", { kind: "http", status: 503 });
    expect((await failure(p.cancel(ep, requestId))).kind).toBe("retryable");
    fal.fault("cancel", { kind: "rate_limit", retryAfter: "11" });
    expect(await failure(p.cancel(ep, requestId))).toMatchObject({
      kind: "rate_limited",
      options: { retryAfterMs: 11_000 },
    });
  });

  it("the fake's status stream speaks SSE and closes after COMPLETED", async () => {
    const ep = endpoint();
    fal.script("next", [
      { status: "IN_QUEUE", position: 2 },
      { status: "IN_PROGRESS" },
      { status: "COMPLETED" },
    ]);
    const { requestId } = await submit(provider(), ep);
    const res = await fetch(`${fal.url}/fal-ai/app-${seq}/requests/${requestId}/status/stream`, {
      headers: { authorization: `Key ${fal.key}` },
    });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const events = (await res.text()).split("\n").filter((l) => l.startsWith("data: "));
    expect(events.map((l) => JSON.parse(l.slice(6)).status)).toEqual([
      "IN_QUEUE",
      "IN_PROGRESS",
      "COMPLETED",
    ]);
  });
});

describe("fal webhooks", () => {
  let receiver: Server;
  let hookUrl = "";
  const received: FalWebhookVerification[] = [];
  const verifier = () => createFalWebhookVerifier({ jwksUrl: `${fal.url}/.well-known/jwks.json` });
  beforeAll(async () => {
    const v = verifier();
    receiver = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const outcome = await v.verify(req.headers, Buffer.concat(chunks));
      received.push(outcome);
      res.writeHead(outcome.ok ? 200 : 401).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise((resolve) => receiver.close(resolve)));

  it("accepts a valid one, rejects forged and stale ones, and exposes duplicates by request id", async () => {
    const jwksBefore = fal.counters.jwks;
    expect(await fal.sendWebhook({ url: hookUrl, requestId: "req-valid" })).toEqual([200]);
    expect(received.at(-1)).toMatchObject({
      ok: true,
      requestId: "req-valid",
      payload: { request_id: "req-valid", status: "OK", payload: { images: [expect.anything()] } },
    });
    expect(await fal.sendWebhook({ url: hookUrl, requestId: "req-f", variant: "forged" })).toEqual([
      401,
    ]);
    expect(received.at(-1)).toEqual({ ok: false, reason: "bad_signature" });
    expect(await fal.sendWebhook({ url: hookUrl, requestId: "req-s", variant: "stale" })).toEqual([
      401,
    ]);
    expect(received.at(-1)).toEqual({ ok: false, reason: "stale_timestamp" });

    expect(
      await fal.sendWebhook({ url: hookUrl, requestId: "req-d", variant: "duplicate" }),
    ).toEqual([200, 200]);
    const ids = received.slice(-2).map((r) => (r.ok ? r.requestId : null));
    expect(ids).toEqual(["req-d", "req-d"]);
    expect(new Set(ids).size).toBe(1);
    expect(fal.counters.jwks - jwksBefore).toBe(1);
  });

  it("refuses missing headers and reports an unreachable JWKS distinctly", async () => {
    expect(await verifier().verify({}, "{}")).toEqual({ ok: false, reason: "missing_headers" });
    const ts = String(Math.floor(Date.now() / 1000));
    const headers = {
      "x-fal-webhook-request-id": "r",
      "x-fal-webhook-user-id": "u",
      "x-fal-webhook-timestamp": ts,
      "x-fal-webhook-signature": "ab".repeat(64),
    };
    fal.fault("jwks", { kind: "http", status: 503 });
    expect(await verifier().verify(headers, "{}")).toEqual({
      ok: false,
      reason: "jwks_unavailable",
    });
  });
});
