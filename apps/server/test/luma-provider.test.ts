import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getNodeDefinition } from "@atelier/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildLumaInput,
  createLumaProvider,
  LUMA_ENDPOINTS,
  LUMA_USER_MESSAGES,
  type LumaProviderOptions,
  parseLumaCallback,
} from "../src/providers/luma/luma-provider.ts";
import {
  type NodeRun,
  ProviderError,
  SubmitOutcomeUnknownError,
} from "../src/providers/provider.ts";
import { type FakeLuma, type LumaFault, startFakeLuma } from "./fakes/luma-server.ts";

let luma: FakeLuma;
beforeAll(async () => {
  luma = await startFakeLuma();
});
afterAll(() => luma.close());

const VIDEO = "generations/video";
const videoPorts = [
  { id: "video", type: "video" },
  { id: "capturedFrame", type: "image" },
];
const provider = (extra: Partial<LumaProviderOptions> = {}) =>
  createLumaProvider({
    key: luma.key,
    baseUrl: luma.url,
    allowMediaHosts: [new URL(luma.url).host],
    ...extra,
  });
const submit = (p = provider(), input: Record<string, unknown> = { prompt: "x" }) =>
  p.submit({ endpoint: VIDEO, input, idempotencyKey: "k" });

/** A node run as the engine resolves it: the catalogue's parsed params, our inputs. */
function run(nodeType: string, endpoint: string, inputs = {}, params = {}): NodeRun {
  const definition = getNodeDefinition(nodeType);
  if (!definition) throw new Error(`no node ${nodeType}`);
  return { nodeType, endpoint, inputs, params: definition.params.parse(params) };
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  const { message, options } = err as ProviderError;
  expect(`${message} ${options.userMessage ?? ""}`).not.toContain(luma.key);
  return err as ProviderError;
}

/** Creates a generation and polls until it reports COMPLETED. */
async function completed(p = provider(), endpoint = VIDEO) {
  const { requestId } = await p.submit({ endpoint, input: { prompt: "x" }, idempotencyKey: "k" });
  for (let i = 0; i < 10 && (await p.status(endpoint, requestId)).status !== "COMPLETED"; i++);
  return requestId;
}

describe("luma buildInput", () => {
  const a = "https://media.example/a.png";
  const b = "https://media.example/b.png";
  const v = "https://media.example/v.mp4";
  const ray = { model: "ray-2", aspect_ratio: "16:9", resolution: "540p", duration: "5s" };
  const modify = { generation_type: "modify_video", model: "ray-2" };

  it("uses the catalogue's luma variants, all of them endpoints we speak", () => {
    const variants = ["luma-ray", "luma-modify", "luma-reframe"].map((type) => {
      const r = getNodeDefinition(type)?.run;
      return r?.kind === "provider" ? r.variants?.luma : undefined;
    });
    expect(variants).toEqual([VIDEO, "generations/video/modify", "generations/video/reframe"]);
    for (const e of variants) expect(LUMA_ENDPOINTS).toContain(e);
  });

  it.each<[string, NodeRun, Record<string, unknown>]>([
    [
      "ray, text only",
      run("luma-ray", VIDEO, {}, { prompt: "a fox" }),
      { ...ray, prompt: "a fox", loop: false },
    ],
    [
      "ray flash, both keyframes, wired prompt wins",
      run(
        "luma-ray",
        VIDEO,
        { prompt: "wired", image: a, endFrame: b },
        { prompt: "typed", model: "ray-2-flash", duration: "9s", resolution: "720p", loop: true },
      ),
      {
        prompt: "wired",
        model: "ray-flash-2",
        aspect_ratio: "16:9",
        resolution: "720p",
        duration: "9s",
        loop: true,
        keyframes: { frame0: { type: "image", url: a }, frame1: { type: "image", url: b } },
      },
    ],
    [
      "ray, end frame only",
      run("luma-ray", VIDEO, { endFrame: b }, { prompt: "p", aspectRatio: "9:21" }),
      {
        ...ray,
        prompt: "p",
        aspect_ratio: "9:21",
        loop: false,
        keyframes: { frame1: { type: "image", url: b } },
      },
    ],
    [
      "modify, no prompt, with a first frame",
      run("luma-modify", "generations/video/modify", { media: v, image: a }, { mode: "adhere_2" }),
      { ...modify, mode: "adhere_2", media: { url: v }, first_frame: { url: a } },
    ],
    [
      "modify from video1",
      run("luma-modify", "generations/video/modify", { video1: v }, { prompt: "noir" }),
      { ...modify, prompt: "noir", mode: "flex_1", media: { url: v } },
    ],
    [
      "video reframe",
      run("luma-reframe", "generations/video/reframe", { media: v }, { aspectRatio: "1:1" }),
      { generation_type: "reframe_video", model: "ray-2", aspect_ratio: "1:1", media: { url: v } },
    ],
    [
      "photon with every reference",
      run(
        "luma-photon",
        "generations/image",
        { image: a, referenceImages: [a, b], styleReference: b },
        { prompt: "p", model: "photon-flash-1", strength: 0.5 },
      ),
      {
        prompt: "p",
        model: "photon-flash-1",
        aspect_ratio: "1:1",
        image_ref: [{ url: a }, { url: b }],
        style_ref: [{ url: b }],
        modify_image_ref: { url: a, weight: 0.5 },
      },
    ],
    [
      "photon, text only",
      run("luma-photon", "generations/image", {}, { prompt: "p" }),
      { prompt: "p", model: "photon-1", aspect_ratio: "1:1" },
    ],
    [
      "image reframe",
      run("reframe", "generations/image/reframe", { image: a }, { aspectRatio: "21:9" }),
      {
        generation_type: "reframe_image",
        model: "photon-1",
        aspect_ratio: "21:9",
        media: { url: a },
      },
    ],
  ])("%s", (_name, nodeRun, expected) => {
    expect(buildLumaInput(nodeRun)).toEqual(expected);
    expect(provider().buildInput(nodeRun)).toEqual(expected);
  });

  it("refuses fal endpoints and a modify without media", () => {
    const fal = run("luma-ray", "fal-ai/luma-dream-machine/ray-2");
    expect(() => buildLumaInput(fal)).toThrow(ProviderError);
    const noMedia = run("luma-modify", "generations/video/modify");
    expect(() => buildLumaInput(noMedia)).toThrow(
      expect.objectContaining({
        kind: "fatal",
        options: { userMessage: LUMA_USER_MESSAGES.noMedia },
      }),
    );
  });

  it("sends the body as built, plus callback_url only when there is a webhook URL", async () => {
    const input = buildLumaInput(run("luma-ray", VIDEO, { image: a }, { prompt: "p" }));
    const webhookUrl = "https://atelier.example/api/hooks/luma/tok";
    const { requestId } = await provider().submit({
      endpoint: VIDEO,
      input,
      webhookUrl,
      idempotencyKey: "k",
    });
    expect(luma.requests.at(-1)).toEqual({
      id: requestId,
      endpoint: VIDEO,
      body: { ...input, callback_url: webhookUrl },
      callbackUrl: webhookUrl,
    });
    await submit(provider(), input);
    expect(luma.requests.at(-1)?.body).toEqual(input);
  });
});

describe("luma provider: happy path", () => {
  it("creates once, follows the states, and maps the video asset", async () => {
    const p = provider();
    const before = luma.counters.creates[VIDEO] ?? 0;
    luma.script("next", [
      { state: "queued" },
      { state: "queued" },
      { state: "dreaming" },
      { state: "completed" },
    ]);
    const { requestId } = await submit(p);
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push((await p.status(VIDEO, requestId)).status);
    expect(seen).toEqual(["IN_QUEUE", "IN_QUEUE", "IN_PROGRESS", "COMPLETED"]);
    const result = await p.result(VIDEO, requestId, { outputs: videoPorts });
    expect(result.media).toEqual([{ output: "video", url: luma.assetUrl(`${requestId}.mp4`) }]);
    const bytes = Buffer.from(await (await fetch(result.media[0]?.url ?? "")).arrayBuffer());
    expect(bytes.subarray(4, 8).toString()).toBe("ftyp");
    expect((luma.counters.creates[VIDEO] ?? 0) - before).toBe(1);
    expect(luma.counters.polls[requestId]).toBe(5);
  });

  it("maps a photon image and a video's frame onto the node's ports", async () => {
    const p = provider();
    const id = await completed(p, "generations/image");
    const image = await p.result("generations/image", id, {
      outputs: [{ id: "image", type: "image" }],
    });
    expect(image.media).toEqual([{ output: "image", url: luma.assetUrl(`${id}.png`) }]);
    const png = Buffer.from(await (await fetch(image.media[0]?.url ?? "")).arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe("PNG");

    const assets = { video: luma.assetUrl("v.mp4"), image: luma.assetUrl("f.png") };
    luma.script("next", [{ state: "completed" }], assets);
    const vid = await completed(p);
    const outputs = (await p.result(VIDEO, vid, { outputs: videoPorts })).media.map(
      (m) => m.output,
    );
    expect(outputs).toEqual(["video", "capturedFrame"]);
    expect((await p.result(VIDEO, vid)).media.map((m) => m.output)).toEqual(["video", "image"]);
  });

  it("treats unknown states as not final", async () => {
    luma.script("next", [{ state: "paused" }]);
    const { requestId } = await submit();
    expect((await provider().status(VIDEO, requestId)).status).toBe("IN_PROGRESS");
  });
});

describe("luma provider: submit faults never lead to a second create", () => {
  const unknown = (reason: string) => ({ kind: "fatal", reason, outcomeUnknown: true });
  it.each<[string, LumaFault, object]>([
    ...([500, 502, 503] as const).map((status): [string, LumaFault, object] => [
      `HTTP ${status}`,
      { kind: "http", status },
      { ...unknown("server_error"), options: expect.objectContaining({ status }) },
    ]),
    ["hang", { kind: "hang" }, unknown("timeout")],
    ["connection reset", { kind: "reset" }, unknown("connection_lost")],
    ["truncated body", { kind: "truncated" }, unknown("connection_lost")],
    ["malformed JSON", { kind: "malformed" }, unknown("bad_answer")],
    ["2xx without id", { kind: "no_id" }, unknown("bad_answer")],
    [
      "429",
      { kind: "rate_limit" },
      { kind: "rate_limited", options: { retryAfterMs: 7000, status: 429 } },
    ],
    [
      "400 with a text detail",
      { kind: "http", status: 400, detail: "Prompt is too short" },
      { kind: "fatal", options: { status: 400, userMessage: "Prompt is too short" } },
    ],
    [
      "400 with a structured detail",
      { kind: "http", status: 400, detail: [{ loc: ["body"], msg: "bad" }] },
      { kind: "fatal", options: { status: 400, userMessage: LUMA_USER_MESSAGES.failed } },
    ],
    [
      "403",
      { kind: "http", status: 403 },
      { kind: "fatal", options: { status: 403, userMessage: LUMA_USER_MESSAGES.refused } },
    ],
  ])("%s", async (_name, fault, expected) => {
    const before = luma.counters.creates[VIDEO] ?? 0;
    luma.fault("create", fault);
    const err = await failure(submit(provider({ timeoutMs: 300 })));
    expect(err).toMatchObject(expected);
    expect(err instanceof SubmitOutcomeUnknownError).toBe("outcomeUnknown" in expected);
    expect((luma.counters.creates[VIDEO] ?? 0) - before).toBe(1);
  });

  it("a refused connection is retryable: the request never left", async () => {
    const closed: Server = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure(submit(provider({ baseUrl: `http://127.0.0.1:${port}` })));
    expect(err).not.toBeInstanceOf(SubmitOutcomeUnknownError);
    expect(err.kind).toBe("retryable");
  });

  it("a wrong key is fatal, and no key is ever echoed", async () => {
    const err = await failure(submit(provider({ key: "wrong-secret" })));
    expect(err).toMatchObject({
      kind: "fatal",
      options: { userMessage: LUMA_USER_MESSAGES.keyRejected },
    });
    expect(err.message).not.toContain("wrong-secret");
    luma.fault("create", { kind: "http", status: 400, detail: `bad key ${luma.key}` });
    expect((await failure(submit())).options.userMessage).toBe("bad key ***");
  });
});

describe("luma provider: status, result and cancel", () => {
  // A whole-response fault serves no step; a mangled answer did, so the script moved on.
  it.each<[string, string, LumaFault, string]>([
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
    luma.fault("get", fault);
    const err = await failure(p.status(VIDEO, requestId));
    expect(err.kind).toBe(kind);
    if (kind === "rate_limited") expect(err.options.retryAfterMs).toBe(3000);
    expect((await p.status(VIDEO, requestId)).status).toBe(next);
    expect(luma.counters.polls[requestId]).toBe(2);
  });

  it("failed → FAILED with Luma's reason (or the older state_reason, or a generic text)", async () => {
    const p = provider();
    const reason = "400: prompt not allowed because advanced moderation failed";
    luma.script("next", [{ state: "failed", failureReason: reason }]);
    const a = await submit(p);
    expect(await p.status(VIDEO, a.requestId)).toMatchObject({ status: "FAILED", error: reason });
    expect(await failure(p.result(VIDEO, a.requestId))).toMatchObject({
      kind: "fatal",
      options: { userMessage: reason },
    });
    luma.script("next", [{ state: "failed", failureReason: "old style", legacyReason: true }]);
    const b = await submit(p);
    expect((await p.status(VIDEO, b.requestId)).error).toBe("old style");
    luma.fault("get", { kind: "failed" });
    expect((await p.status(VIDEO, b.requestId)).error).toBe(LUMA_USER_MESSAGES.failed);
    luma.fault("get", { kind: "failed", reason: `leak\n${luma.key}` });
    expect((await p.status(VIDEO, b.requestId)).error).toBe("leak ***");
  });

  it.each<[string, string, LumaFault, string | undefined]>([
    ["a private asset URL", "fatal", { kind: "private_url" }, LUMA_USER_MESSAGES.failed],
    [
      "a file: asset URL",
      "fatal",
      { kind: "private_url", url: "file:///etc/passwd" },
      LUMA_USER_MESSAGES.failed,
    ],
    ["503", "retryable", { kind: "http", status: 503 }, undefined],
    ["hang", "retryable", { kind: "hang" }, undefined],
    ["malformed", "retryable", { kind: "malformed" }, undefined],
  ])("result %s → %s", async (_n, kind, fault, userMessage) => {
    const requestId = await completed();
    luma.fault("get", fault);
    const err = await failure(provider({ timeoutMs: 300 }).result(VIDEO, requestId));
    expect(err.kind).toBe(kind);
    expect(err.options.userMessage).toBe(userMessage);
  });

  it("a result before completion is retryable; completed without a fitting asset is fatal", async () => {
    const { requestId } = await submit();
    expect((await failure(provider().result(VIDEO, requestId))).kind).toBe("retryable");
    const id = await completed();
    const err = await failure(
      provider().result(VIDEO, id, { outputs: [{ id: "image", type: "image" }] }),
    );
    expect(err).toMatchObject({
      kind: "fatal",
      options: { userMessage: LUMA_USER_MESSAGES.failed },
    });
  });

  it("cancel deletes once; a gone generation cancels quietly and reads as lost", async () => {
    const p = provider();
    const { requestId } = await submit(p);
    const before = luma.counters.deletes;
    await p.cancel(VIDEO, requestId);
    expect(luma.counters.deletes - before).toBe(1);
    expect(await failure(p.status(VIDEO, requestId))).toMatchObject({
      kind: "fatal",
      options: { status: 404, userMessage: LUMA_USER_MESSAGES.lost },
    });
    await expect(p.cancel(VIDEO, requestId)).resolves.toBeUndefined();
    luma.fault("delete", { kind: "http", status: 503 });
    expect((await failure(p.cancel(VIDEO, requestId))).kind).toBe("retryable");
    luma.fault("delete", { kind: "rate_limit", retryAfter: "11" });
    expect(await failure(p.cancel(VIDEO, requestId))).toMatchObject({
      kind: "rate_limited",
      options: { retryAfterMs: 11_000 },
    });
    expect((await failure(p.status(VIDEO, "../etc"))).kind).toBe("fatal");
  });
});

describe("luma callbacks", () => {
  let receiver: Server;
  let hookUrl = "";
  const bodies: Buffer[] = [];
  beforeAll(async () => {
    receiver = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      bodies.push(Buffer.concat(chunks));
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/luma/tok`;
  });
  afterAll(() => new Promise((resolve) => receiver.close(resolve)));

  it("parses a delivered Generation into a hint, and garbage into null", async () => {
    const p = provider();
    const { requestId } = await p.submit({
      endpoint: VIDEO,
      input: { prompt: "x" },
      webhookUrl: hookUrl,
      idempotencyKey: "k",
    });
    await p.status(VIDEO, requestId);
    await p.status(VIDEO, requestId);
    expect(await luma.sendCallback(requestId)).toBe(204);
    const hint = { id: requestId, state: "dreaming" };
    expect(parseLumaCallback(bodies.at(-1))).toEqual(hint);
    expect(parseLumaCallback(bodies.at(-1)?.toString())).toEqual(hint);
    expect(parseLumaCallback(JSON.parse(String(bodies.at(-1))))).toEqual(hint);

    expect(await luma.sendCallback(requestId, "{not json")).toBe(204);
    expect(parseLumaCallback(bodies.at(-1))).toBeNull();
    for (const garbage of [
      null,
      undefined,
      42,
      "[]",
      [],
      { id: 5, state: "completed" },
      { id: "a" },
    ]) {
      expect(parseLumaCallback(garbage)).toBeNull();
    }
    expect(parseLumaCallback({ id: "../../admin", state: "completed" })).toBeNull();
  });
});
