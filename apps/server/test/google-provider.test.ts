import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createGoogleProvider,
  type GoogleProviderOptions,
  GoogleResultLostError,
  GOOGLE_USER_MESSAGES as MSG,
} from "../src/providers/google/google-provider.ts";
import {
  type NodeRun,
  ProviderError,
  SubmitOutcomeUnknownError,
} from "../src/providers/provider.ts";
import { type FakeGoogle, type FakeGoogleFault, startFakeGoogle } from "./fakes/google-server.ts";
import { mp4Bytes, pngBytes } from "./helpers/files.ts";

let g: FakeGoogle;
let seq = 0;
beforeAll(async () => {
  g = await startFakeGoogle();
});
afterAll(() => g.close());

const provider = (extra: Partial<GoogleProviderOptions> = {}) =>
  createGoogleProvider({
    key: g.key,
    baseUrl: g.url,
    allowMediaHosts: [new URL(g.url).host],
    ...extra,
  });
const node = (nodeType: string, endpoint: string, inputs: NodeRun["inputs"], params = {}) => ({
  nodeType,
  endpoint,
  inputs,
  params,
});
/** Runs on a fresh model id each, so per-model counters are the test's own. */
const textRun = () =>
  node(
    "gemini-text",
    "models/gemini-2.5-flash:generateContent",
    { prompt: "Hello" },
    {
      model: `gemini-t${++seq}`,
      maxOutputTokens: 64,
    },
  );
const veoRun = (inputs: NodeRun["inputs"] = {}) =>
  node(
    "veo3-video",
    `veo-3.0-generate-t${++seq}`,
    { prompt: "A dog surfing", ...inputs },
    {
      aspectRatio: "16:9",
      duration: "8s",
    },
  );
const submitRun = async (run: NodeRun, p = provider()) => {
  const input = p.buildInput(run);
  const { requestId } = await p.submit({ endpoint: run.endpoint, input, idempotencyKey: "k" });
  return { requestId, model: String(input.model) };
};
const sumPolls = () => Object.values(g.counters.polls).reduce((a, b) => a + b, 0);

/** The error a promise rejects with; never carrying the key. */
async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  const e = err as ProviderError;
  expect(`${e.message} ${e.options.userMessage ?? ""}`).not.toContain(g.key);
  return e;
}

describe("google buildInput", () => {
  const p = createGoogleProvider({ key: "k" });
  const u = (name: string) => `https://s.example/${name}`;
  const file = (mimeType: string, name: string) => ({ fileData: { mimeType, fileUri: u(name) } });
  const fetch = (name: string, mimeType = "image/png") => ({ fetchUrl: u(name), mimeType });
  const user = (...parts: unknown[]) => [{ role: "user", parts }];

  it("builds gemini-text: fileData images, connected prompt, system prompt, model", () => {
    const params = { prompt: "typed", systemPrompt: "Be brief", model: "gemini-2.5-pro" };
    const inputs = { prompt: "Describe", image: [u("a.png"), u("b.JPG")] };
    const run = node("gemini-text", "models/gemini-2.5-flash:generateContent", inputs, {
      ...params,
      temperature: 0.5,
      maxOutputTokens: 256,
    });
    expect(p.buildInput(run)).toEqual({
      model: "gemini-2.5-pro",
      contents: user(file("image/png", "a.png"), file("image/jpeg", "b.JPG"), { text: "Describe" }),
      systemInstruction: { parts: [{ text: "Be brief" }] },
      generationConfig: { temperature: 0.5, maxOutputTokens: 256 },
    });
  });

  it("builds a flash image body without fal-only parameters", () => {
    const inputs = { image: [u("x.webp")], referenceImages: [u("r")] };
    const params = { prompt: "a cat", aspectRatio: "16:9", numImages: 2, safetyTolerance: "4" };
    const run = node("google-flash", "gemini-2.5-flash-image", inputs, {
      ...params,
      seed: 2 ** 32 - 1,
    });
    expect(p.buildInput(run)).toEqual({
      model: "gemini-2.5-flash-image",
      contents: user(file("image/webp", "x.webp"), file("image/png", "r"), { text: "a cat" }),
      generationConfig: {
        responseModalities: ["IMAGE"],
        imageConfig: { aspectRatio: "16:9" },
        seed: 2 ** 31 - 1,
      },
    });
  });

  it("builds Veo bodies: model variant, image placeholders, Gemini API parameters", () => {
    const params = { negativePrompt: "blur", model: "fast", aspectRatio: "auto", duration: "6s" };
    const extra = { resolution: "1080p", generateAudio: true, seed: 5 };
    const inputs = { prompt: "a dog", image: u("i.jpg") };
    expect(
      p.buildInput(node("veo3-video", "veo-3.0-generate-001", inputs, { ...params, ...extra })),
    ).toEqual({
      model: "veo-3.0-fast-generate-001",
      instances: [{ prompt: "a dog", image: fetch("i.jpg", "image/jpeg") }],
      parameters: {
        sampleCount: 1,
        durationSeconds: 6,
        negativePrompt: "blur",
        resolution: "1080p",
      },
    });
    const frames = { firstFrame: u("f.png"), lastFrame: u("l.png"), referenceImages: [u("r.png")] };
    const v31 = { prompt: "morph", model: "standard", aspectRatio: "9:16", duration: "8s" };
    expect(p.buildInput(node("veo31-video", "veo-3.1-generate-preview", frames, v31))).toEqual({
      model: "veo-3.1-generate-preview",
      instances: [
        {
          prompt: "morph",
          image: fetch("f.png"),
          lastFrame: fetch("l.png"),
          referenceImages: [{ image: fetch("r.png"), referenceType: "asset" }],
        },
      ],
      parameters: { sampleCount: 1, aspectRatio: "9:16", durationSeconds: 8 },
    });
    const v2 = { prompt: "sea", enhancePrompt: false, duration: "5s" };
    const veo2 = p.buildInput(node("veo-video", "veo-2.0-generate-001", {}, v2));
    expect(veo2.parameters).toEqual({ sampleCount: 1, durationSeconds: 5, enhancePrompt: false });
  });

  it("refuses an endpoint that names no Google model", () => {
    const run = node("google-flash", "fal-ai/gemini-25-flash-image", {}, {});
    const want = { kind: "fatal", options: { userMessage: MSG.noModel } };
    expect(() => p.buildInput(run)).toThrow(expect.objectContaining(want));
  });
});

describe("google text and flash image (synchronous)", () => {
  it("generates text once and maps it to the text port", async () => {
    const p = provider();
    const run = textRun();
    const { requestId, model } = await submitRun(run, p);
    expect(requestId).toMatch(/^sync-[\w-]+$/);
    expect(g.counters.calls[model]).toBe(1);
    const body = { contents: [{ role: "user", parts: [{ text: "Hello" }] }] };
    const sent = { ...body, generationConfig: { maxOutputTokens: 64 } };
    expect(g.requests.at(-1)).toEqual({ model, method: "generateContent", body: sent });
    expect((await p.status(run.endpoint, requestId)).status).toBe("COMPLETED");
    const outputs = [{ id: "text", type: "text" }];
    const result = await p.result(run.endpoint, requestId, { outputs });
    expect(result).toMatchObject({ media: [], values: { text: "Echo: Hello" } });
  });

  it("decodes a flash image into real PNG bytes on the image port", async () => {
    const p = provider();
    const run = node("google-flash", `gemini-image-t${++seq}`, { prompt: "a cat" });
    const { requestId } = await submitRun(run, p);
    const outputs = [{ id: "image", type: "image" }];
    const result = await p.result(run.endpoint, requestId, { outputs });
    expect(result.media).toHaveLength(1);
    expect(result.media[0]).toMatchObject({ output: "image", contentType: "image/png" });
    const meta = await sharp(Buffer.from(result.media[0]?.bytes ?? [])).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 8, 8]);
    expect(JSON.stringify(result.raw)).toMatch(/"data":"\[\d+ base64 chars\]"/);
  });

  it("reports blocked prompts and worded refusals as FAILED", async () => {
    const p = provider();
    g.respond({ promptFeedback: { blockReason: "SAFETY" } });
    const blocked = await submitRun(textRun(), p);
    const status = await p.status("e", blocked.requestId);
    expect(status).toMatchObject({ status: "FAILED", error: MSG.blocked });
    expect((await failure(p.result("e", blocked.requestId))).kind).toBe("fatal");
    const words = { parts: [{ text: "I can't draw that." }] };
    g.respond({ candidates: [{ content: words, finishReason: "STOP" }] });
    const refused = await submitRun(node("google-flash", "gemini-image-x", { prompt: "x" }), p);
    const refusal = await p.status("e", refused.requestId);
    expect(refusal).toMatchObject({ status: "FAILED", error: "I can't draw that." });
  });

  it("answers a retryable 'result lost' error when the answer is no longer in memory", async () => {
    const { requestId } = await submitRun(textRun());
    const err = await failure(provider().result("e", requestId)); // as after a restart
    expect(err).toBeInstanceOf(GoogleResultLostError);
    const want = { kind: "retryable", resultLost: true, options: { userMessage: MSG.resultLost } };
    expect(err).toMatchObject(want);
  });
});

describe("google Veo (long-running)", () => {
  it("inlines the input image, polls to COMPLETED, downloads the video with the key", async () => {
    const p = provider();
    g.script("next", [{ done: false }, { done: false }, { done: true }]);
    const run = veoRun({ image: g.inputUrl("cat.png") });
    const { requestId, model } = await submitRun(run, p);
    expect(requestId).toMatch(new RegExp(`^models/${model}/operations/\\w+$`));
    const image = {
      bytesBase64Encoded: (await pngBytes(8, 8)).toString("base64"),
      mimeType: "image/png",
    };
    const body = {
      instances: [{ prompt: "A dog surfing", image }],
      parameters: { sampleCount: 1, aspectRatio: "16:9", durationSeconds: 8 },
    };
    expect(g.requests.at(-1)).toEqual({ model, method: "predictLongRunning", body });
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push((await p.status(run.endpoint, requestId)).status);
    expect(seen).toEqual(["IN_PROGRESS", "IN_PROGRESS", "COMPLETED"]);
    const downloads = g.counters.downloads;
    const outputs = [
      { id: "video", type: "video" },
      { id: "capturedFrame", type: "image" },
    ];
    const { media } = await p.result(run.endpoint, requestId, { outputs });
    expect(media.map((m) => [m.output, m.contentType])).toEqual([["video", "video/mp4"]]);
    expect(Buffer.from(media[0]?.bytes ?? []).equals(mp4Bytes())).toBe(true);
    expect([g.counters.downloads - downloads, g.counters.calls[model]]).toEqual([1, 1]);
    expect(g.counters.polls[requestId]).toBe(4);
  });

  it("maps errors, safety filtering, cancellation and lost operations to end states", async () => {
    const p = provider();
    const said = "The prompt could not be used.";
    g.script("next", [{ done: true, error: { code: 3, message: said } }]);
    const failed = await submitRun(veoRun(), p);
    expect(await p.status("e", failed.requestId)).toMatchObject({ status: "FAILED", error: said });
    const err = await failure(p.result("e", failed.requestId));
    expect(err).toMatchObject({ kind: "fatal", options: { userMessage: said } });
    const reasons = ["Blocked: celebrity likeness."];
    const rai = { raiMediaFilteredCount: 1, raiMediaFilteredReasons: reasons };
    g.script("next", [{ done: true, response: { generateVideoResponse: rai } }]);
    const filtered = await submitRun(veoRun(), p);
    const state = await p.status("e", filtered.requestId);
    expect(state).toMatchObject({ status: "FAILED", error: reasons[0] });
    g.script("next", [{ done: false }]);
    const cancelled = await submitRun(veoRun(), p);
    await p.cancel("e", cancelled.requestId);
    expect((await p.status("e", cancelled.requestId)).status).toBe("CANCELLED");
    const lost = await submitRun(veoRun(), p);
    g.fault("operation", { kind: "lost" });
    const gone = { status: "FAILED", error: MSG.lost };
    expect(await p.status("e", lost.requestId)).toMatchObject(gone);
    expect(await p.status("e", "models/veo-x/operations/unknown")).toMatchObject(gone);
    const polls = sumPolls();
    expect((await failure(p.status("e", "../../v1beta/files/x"))).kind).toBe("fatal");
    expect(sumPolls()).toBe(polls);
  });

  it("takes inline videos, and never sends the key to a host other than the API's", async () => {
    const p = provider();
    const inlineVideo = { encodedVideo: "AAEC", encoding: "video/mp4" };
    const answer = (video: unknown) => ({
      generateVideoResponse: { generatedSamples: [{ video }] },
    });
    g.script("next", [{ done: true, response: answer(inlineVideo) }]);
    const inline = await submitRun(veoRun(), p);
    const { media } = await p.result("e", inline.requestId);
    expect(media).toEqual([
      { output: "video", bytes: new Uint8Array([0, 1, 2]), contentType: "video/mp4" },
    ]);
    g.script("next", [
      { done: true, response: answer({ uri: "https://elsewhere.example/v.mp4" }) },
    ]);
    const other = await submitRun(veoRun(), p);
    expect((await failure(p.result("e", other.requestId))).kind).toBe("fatal");
  });

  it("classifies download and poll failures", async () => {
    const p = provider({ timeoutMs: 150, downloadTimeoutMs: 150 });
    g.script("next", [{ done: true }]);
    const { requestId } = await submitRun(veoRun(), p);
    const cases: Array<["download" | "operation", FakeGoogleFault, string, string?]> = [
      ["download", { kind: "lost" }, "fatal", MSG.expired],
      ["download", { kind: "http", status: 503 }, "retryable"],
      ["download", { kind: "truncated" }, "retryable"],
      ["download", { kind: "hang" }, "retryable"],
      ["operation", { kind: "http", status: 500 }, "retryable"],
      ["operation", { kind: "rate_limit", retryAfter: "3" }, "rate_limited"],
      ["operation", { kind: "hang" }, "retryable"],
      ["operation", { kind: "malformed" }, "retryable"],
      ["operation", { kind: "http", status: 401 }, "fatal", MSG.keyRejected],
    ];
    for (const [route, fault, kind, userMessage] of cases) {
      g.fault(route, fault);
      const err = await failure(p.result("e", requestId));
      const seen = [route, fault.kind, err.kind, err.options.userMessage];
      expect(seen).toEqual([route, fault.kind, kind, userMessage]);
    }
    expect((await p.result("e", requestId)).media).toHaveLength(1);
  });
});

describe("google submit failures", () => {
  /** `kind[=retryAfterMs or userMessage]`, or `unknown:<reason>`; a Veo "=" is as for text. */
  const cases: Array<[string, FakeGoogleFault, text: string, veo: string]> = [
    ["500", { kind: "http", status: 500 }, "retryable", "unknown:server_error"],
    ["503", { kind: "http", status: 503 }, "retryable", "unknown:server_error"],
    ["504", { kind: "http", status: 504 }, "unknown:timeout", "unknown:timeout"],
    ["429 Retry-After", { kind: "rate_limit", retryAfter: "7" }, "rate_limited=7000", "="],
    ["429 RetryInfo", { kind: "rate_limit", retryDelay: "2.5s" }, "rate_limited=2500", "="],
    ["hang", { kind: "hang" }, "unknown:timeout", "="],
    ["reset", { kind: "reset" }, "unknown:connection_lost", "="],
    ["truncated", { kind: "truncated" }, "unknown:connection_lost", "="],
    ["malformed", { kind: "malformed" }, "unknown:bad_answer", "="],
    ["400", { kind: "http", status: 400, message: "Bad duration." }, "fatal=Bad duration.", "="],
    ["403", { kind: "http", status: 403 }, `fatal=${MSG.keyRejected}`, "="],
    ["404", { kind: "http", status: 404 }, `fatal=${MSG.unknownModel}`, "="],
  ];
  it.each(cases)("%s: the right kind, after exactly one call", async (_, fault, text, veo) => {
    const p = provider({ timeoutMs: 150, generateTimeoutMs: 150 });
    const runs = [
      ["generate", textRun(), text] as const,
      ["predict", veoRun(), veo === "=" ? text : veo] as const,
    ];
    for (const [route, run, want] of runs) {
      g.fault(route, fault);
      const input = p.buildInput(run);
      const err = await failure(p.submit({ endpoint: run.endpoint, input, idempotencyKey: "k" }));
      const [kind, detail] = want.split("=");
      const seen = err instanceof SubmitOutcomeUnknownError ? `unknown:${err.reason}` : err.kind;
      expect([route, seen]).toEqual([route, kind]);
      const value =
        err.kind === "rate_limited" ? String(err.options.retryAfterMs) : err.options.userMessage;
      if (detail) expect(value).toBe(detail);
      expect(g.counters.calls[String(input.model)]).toBe(1);
    }
  });

  it("rejects a wrong key without echoing it, and retries refused connections", async () => {
    const wrong = await failure(submitRun(textRun(), provider({ key: "AIza-wrong-key" })));
    expect(wrong).toMatchObject({ kind: "fatal", options: { userMessage: MSG.keyRejected } });
    expect(wrong.message).not.toContain("AIza-wrong-key");
    const server = createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const refused = await failure(
      submitRun(veoRun(), provider({ baseUrl: `http://127.0.0.1:${port}` })),
    );
    expect(refused).not.toBeInstanceOf(SubmitOutcomeUnknownError);
    expect(refused.kind).toBe("retryable");
  });

  it("sends nothing when a Veo input image cannot be read", async () => {
    const cases = [
      [{ kind: "lost" }, "fatal"],
      [{ kind: "http", status: 503 }, "retryable"],
    ] as const;
    for (const [fault, kind] of cases) {
      g.fault("input", fault);
      const run = veoRun({ image: g.inputUrl("missing.png") });
      const err = await failure(submitRun(run));
      expect(err.kind).toBe(kind);
      expect(g.counters.calls[run.endpoint]).toBeUndefined();
    }
  });
});
