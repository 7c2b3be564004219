import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createElevenLabsProvider,
  type ElevenLabsProviderOptions,
  ElevenLabsResultLostError,
  type FetchInput,
  ELEVENLABS_USER_MESSAGES as MSG,
} from "../src/providers/elevenlabs/elevenlabs-provider.ts";
import {
  type GenerationProvider,
  type NodeRun,
  ProviderError,
  SubmitOutcomeUnknownError,
} from "../src/providers/provider.ts";
import { OutboundFetchError } from "../src/providers/safe-fetch.ts";
import {
  FAKE_MP3,
  type FakeElevenLabs,
  type FakeElevenLabsFault,
  type FakeElevenLabsRoute,
  FAKE_PREMADE_VOICE as RACHEL,
  startFakeElevenLabs,
} from "./fakes/elevenlabs-server.ts";
import { wavBytes } from "./helpers/files.ts";

let el: FakeElevenLabs;
beforeAll(async () => {
  el = await startFakeElevenLabs();
});
afterAll(() => el.close());

const TTS = "v1/text-to-speech";
const SFX = "v1/sound-generation";
const CLONE = "v1/voices/add";
const ISOLATE = "v1/audio-isolation";
const AUDIO_PORTS = [{ id: "audio", type: "audio" }];
const CLONE_PORTS = [
  { id: "voiceId", type: "text" },
  { id: "audio", type: "audio" },
];
const SAMPLE_URL = "https://media.example/api/media/file/u1/sample.wav";
const SAMPLE = wavBytes(1600);

/** Serves SAMPLE for every URL and records what was asked. */
function inputs() {
  const asked: string[] = [];
  const fetchInput: FetchInput = async (url) => {
    asked.push(url);
    return { bytes: new Uint8Array(SAMPLE), contentType: "audio/wav" };
  };
  return { asked, fetchInput };
}
const provider = (extra: Partial<ElevenLabsProviderOptions> = {}) =>
  createElevenLabsProvider({
    key: el.key,
    baseUrl: el.url,
    fetchInput: inputs().fetchInput,
    ...extra,
  });
const run = (endpoint: string, inputs: NodeRun["inputs"], params: NodeRun["params"] = {}) => ({
  nodeType: { [TTS]: "elevenlabs-v3", [SFX]: "elevenlabs-sfx", [CLONE]: "voice-clone" }[
    endpoint
  ] as string,
  endpoint,
  inputs,
  params,
});
const build = (r: NodeRun) => createElevenLabsProvider({ key: "k" }).buildInput(r);
const V3 = { text: "", voice: "Rachel", stability: "0.5", languageCode: "", seed: null };
const SFX_PARAMS = { prompt: "", durationSeconds: 5, promptInfluence: 0.3, loop: false };
const CLONE_PARAMS = {
  name: "My voice",
  text: "Hello! This is my cloned voice.",
  removeBackgroundNoise: true,
};
const runs = {
  tts: (params = {}) => run(TTS, { text: "Hello there" }, { ...V3, ...params }),
  sfx: () => run(SFX, { prompt: "A door creaks" }, SFX_PARAMS),
  clone: () => run(CLONE, { media: SAMPLE_URL }, CLONE_PARAMS),
  isolation: () => run(ISOLATE, { media: SAMPLE_URL }),
};

/** Builds and submits a node run; returns the request id. */
async function submitRun(r: NodeRun, p: GenerationProvider = provider()) {
  const input = p.buildInput(r);
  return (await p.submit({ endpoint: r.endpoint, input, idempotencyKey: "job" })).requestId;
}
/** Calls per route made while `fn` ran. */
async function callsDuring(fn: () => Promise<unknown>) {
  const before = { ...el.counters.calls };
  await fn();
  const diff = (r: FakeElevenLabsRoute) => el.counters.calls[r] - before[r];
  return {
    tts: diff("tts"),
    sfx: diff("sfx"),
    voices: diff("voices"),
    isolation: diff("isolation"),
  };
}
/** The error a promise rejects with; never carrying the key. */
async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  const e = err as ProviderError;
  expect(`${e.message} ${e.options.userMessage ?? ""}`).not.toContain(el.key);
  return e;
}
/** A PCM16 mono WAV: its header fields and its data length. */
function readWav(bytes: Uint8Array) {
  const b = Buffer.from(bytes);
  expect(b.toString("latin1", 0, 4)).toBe("RIFF");
  expect(b.toString("latin1", 8, 16)).toBe("WAVEfmt ");
  expect(b.toString("latin1", 36, 40)).toBe("data");
  expect(b.readUInt32LE(4)).toBe(b.length - 8);
  expect(b.readUInt32LE(40)).toBe(b.length - 44);
  return { channels: b.readUInt16LE(22), rate: b.readUInt32LE(24), bits: b.readUInt16LE(34) };
}

describe("elevenlabs buildInput", () => {
  it("text-to-speech: connected text wins; voice name → id; stability as a number", () => {
    const full = { ...V3, text: "typed", stability: "1", languageCode: "fr", seed: 42 };
    expect(
      build(run(TTS, { text: "connected" }, { ...full, outputFormat: "pcm_44100" })),
    ).toStrictEqual({
      voice_id: RACHEL,
      output_format: "pcm_44100",
      text: "connected",
      model_id: "eleven_v3",
      voice_settings: { stability: 1 },
      language_code: "fr",
      seed: 42,
    });
    const typed = build(
      run(TTS, { text: "  " }, { ...V3, text: "typed", voice: "Xb7hH8MSUJpSbSDYk0k2" }),
    );
    expect(typed).toStrictEqual({
      voice_id: "Xb7hH8MSUJpSbSDYk0k2",
      output_format: "mp3_44100_128",
      text: "typed",
      model_id: "eleven_v3",
      voice_settings: { stability: 0.5 },
    });
    expect(build(run(TTS, { text: "hi" }, { voice: "" })).voice_id).toBe(RACHEL);
    expect(build(run(TTS, { text: "hi" }, { voice: "adam" })).voice_id).toBe(
      "pNInz6obpgDQGcFmaJgB",
    );
  });

  it("sound effects: prompt → text, pinned model, loop only when on", () => {
    expect(build(runs.sfx())).toStrictEqual({
      output_format: "mp3_44100_128",
      text: "A door creaks",
      model_id: "eleven_text_to_sound_v2",
      duration_seconds: 5,
      prompt_influence: 0.3,
    });
    const typed = build(run(SFX, {}, { ...SFX_PARAMS, prompt: "Rain", loop: true }));
    expect(typed).toStrictEqual({
      output_format: "mp3_44100_128",
      text: "Rain",
      model_id: "eleven_text_to_sound_v2",
      duration_seconds: 5,
      prompt_influence: 0.3,
      loop: true,
    });
  });

  it("voice clone and isolation carry input URLs for submit to download", () => {
    expect(build(runs.clone())).toStrictEqual({
      name: "My voice",
      files: [SAMPLE_URL],
      remove_background_noise: true,
      preview_text: "Hello! This is my cloned voice.",
    });
    const own = run(
      CLONE,
      { media: [SAMPLE_URL, SAMPLE_URL], text: "Say this" },
      {
        ...CLONE_PARAMS,
        name: "Narrator",
        removeBackgroundNoise: false,
      },
    );
    expect(build(own)).toStrictEqual({
      name: "Narrator",
      files: [SAMPLE_URL, SAMPLE_URL],
      remove_background_noise: false,
      preview_text: "Say this",
    });
    expect(build(runs.isolation())).toStrictEqual({ audio: SAMPLE_URL });
  });

  it("missing text or sample, a bad voice and foreign endpoints are fatal", () => {
    const fatal = (userMessage: string) =>
      expect.objectContaining({ kind: "fatal", options: { userMessage } });
    expect(() => build(run(TTS, {}, V3))).toThrow(fatal(MSG.missingText));
    expect(() => build(run(SFX, { prompt: "" }, SFX_PARAMS))).toThrow(fatal(MSG.missingText));
    expect(() => build(run(CLONE, {}, CLONE_PARAMS))).toThrow(fatal(MSG.missingInput));
    expect(() => build(run(ISOLATE, {}))).toThrow(fatal(MSG.missingInput));
    expect(() => build(run(TTS, { text: "hi" }, { voice: "../v1/user" }))).toThrow(
      fatal(MSG.unknownVoice),
    );
    const fal = { ...runs.tts(), endpoint: "fal-ai/elevenlabs/tts/eleven-v3" };
    expect(() => build(fal)).toThrow(fatal(MSG.unknownEndpoint));
  });
});

describe("elevenlabs provider: happy paths", () => {
  it("text-to-speech: one call, voice in the path, format in the query, MP3 on the audio port", async () => {
    const p = provider();
    let requestId = "";
    const calls = await callsDuring(async () => {
      requestId = await submitRun(runs.tts(), p);
    });
    expect(calls).toEqual({ tts: 1, sfx: 0, voices: 0, isolation: 0 });
    expect(el.requests.at(-1)).toMatchObject({
      path: `/v1/text-to-speech/${RACHEL}`,
      query: { output_format: "mp3_44100_128" },
      authorized: true,
    });
    expect(el.requests.at(-1)?.body).toStrictEqual({
      text: "Hello there",
      model_id: "eleven_v3",
      voice_settings: { stability: 0.5 },
    });
    expect(await p.status(TTS, requestId)).toEqual({
      status: "COMPLETED",
      queuePosition: null,
      progress: null,
      logs: [],
    });
    const result = await p.result(TTS, requestId, { outputs: AUDIO_PORTS });
    expect(result.media).toEqual([
      { output: "audio", bytes: new Uint8Array(FAKE_MP3), contentType: "audio/mpeg" },
    ]);
    expect(result.values).toBeUndefined();
  });

  it("text-to-speech as pcm_44100: the raw samples come back as a decodable WAV", async () => {
    const p = provider();
    const requestId = await submitRun(runs.tts({ outputFormat: "pcm_44100" }), p);
    const [media] = (await p.result(TTS, requestId, { outputs: AUDIO_PORTS })).media;
    expect(media?.contentType).toBe("audio/wav");
    expect(readWav(media?.bytes ?? new Uint8Array())).toEqual({
      channels: 1,
      rate: 44100,
      bits: 16,
    });
    expect(media?.bytes?.length).toBe(44 + Math.round(0.25 * 44100) * 2);
  });

  it("sound effects: one call with the body as built", async () => {
    const p = provider();
    let requestId = "";
    const calls = await callsDuring(async () => {
      requestId = await submitRun(runs.sfx(), p);
    });
    expect(calls).toEqual({ tts: 0, sfx: 1, voices: 0, isolation: 0 });
    expect(el.requests.at(-1)).toMatchObject({
      path: "/v1/sound-generation",
      query: { output_format: "mp3_44100_128" },
      body: {
        text: "A door creaks",
        model_id: "eleven_text_to_sound_v2",
        duration_seconds: 5,
        prompt_influence: 0.3,
      },
    });
    const { media } = await p.result(SFX, requestId, { outputs: AUDIO_PORTS });
    expect(Buffer.from(media[0]?.bytes ?? [])).toEqual(FAKE_MP3);
  });

  it("voice clone: samples uploaded as multipart, voice id on the text port, preview audio", async () => {
    const { asked, fetchInput } = inputs();
    const p = provider({ fetchInput });
    let requestId = "";
    const calls = await callsDuring(async () => {
      requestId = await submitRun(runs.clone(), p);
    });
    expect(calls).toEqual({ tts: 1, sfx: 0, voices: 1, isolation: 0 });
    expect(asked).toEqual([SAMPLE_URL]);
    const voiceId = el.voices.at(-1);
    const [add, preview] = el.requests.slice(-2);
    expect(add?.body).toEqual([
      { field: "name", value: "My voice" },
      { field: "remove_background_noise", value: "true" },
      { field: "files", filename: "sample.wav", contentType: "audio/wav", size: SAMPLE.length },
    ]);
    expect(preview).toMatchObject({
      path: `/v1/text-to-speech/${voiceId}`,
      body: { text: "Hello! This is my cloned voice.", model_id: "eleven_v3" },
    });
    const result = await p.result(CLONE, requestId, { outputs: CLONE_PORTS });
    expect(result.values).toEqual({ voiceId });
    expect(result.media).toEqual([
      { output: "audio", bytes: new Uint8Array(FAKE_MP3), contentType: "audio/mpeg" },
    ]);
  });

  it("audio isolation: the input as multipart `audio`, a WAV back", async () => {
    const p = provider();
    let requestId = "";
    const calls = await callsDuring(async () => {
      requestId = await submitRun(runs.isolation(), p);
    });
    expect(calls.isolation).toBe(1);
    expect(el.requests.at(-1)?.body).toEqual([
      { field: "audio", filename: "sample.wav", contentType: "audio/wav", size: SAMPLE.length },
    ]);
    const [media] = (await p.result(ISOLATE, requestId, { outputs: AUDIO_PORTS })).media;
    expect(media?.contentType).toBe("audio/wav");
    expect(readWav(media?.bytes ?? new Uint8Array())).toEqual({
      channels: 1,
      rate: 16000,
      bits: 16,
    });
  });

  it("the default input fetcher downloads without the key from allowed hosts only", async () => {
    const url = el.mediaUrl("voice.wav");
    const allowed = provider({ fetchInput: undefined, allowMediaHosts: [new URL(el.url).host] });
    await submitRun(run(ISOLATE, { media: url }), allowed);
    const media = el.requests.filter((r) => r.route === "media").at(-1);
    expect(media).toMatchObject({ path: "/media/voice.wav", authorized: false });
    const strict = provider({ fetchInput: undefined });
    const calls = await callsDuring(async () => {
      const err = await failure(submitRun(run(ISOLATE, { media: url }), strict));
      expect(err).toMatchObject({ kind: "fatal", options: { userMessage: MSG.input } });
    });
    expect(calls.isolation).toBe(0);
  });
});

describe("elevenlabs provider: faults", () => {
  const unknown = (reason: string, userMessage: string = MSG.outcomeUnknown) => ({
    kind: "fatal",
    reason,
    outcomeUnknown: true,
    options: expect.objectContaining({ userMessage }),
  });
  const fatal = (userMessage: string, status: number) => ({
    kind: "fatal",
    options: { status, userMessage },
  });
  const plain = "The text contains unsupported tags.";
  const cases: Array<[string, FakeElevenLabsFault, object]> = [
    ["500", { kind: "http", status: 500 }, { kind: "retryable", options: { status: 500 } }],
    ["503", { kind: "http", status: 503 }, { kind: "retryable", options: { status: 503 } }],
    ["502", { kind: "http", status: 502 }, unknown("server_error")],
    ["504", { kind: "http", status: 504 }, unknown("timeout")],
    [
      "429",
      { kind: "rate_limit" },
      { kind: "rate_limited", options: { status: 429, retryAfterMs: 7000 } },
    ],
    [
      "429 without Retry-After",
      { kind: "rate_limit", retryAfter: null, status: "too_many_concurrent_requests" },
      { kind: "rate_limited", options: { status: 429, retryAfterMs: 5000 } },
    ],
    ["hang", { kind: "hang" }, unknown("timeout")],
    ["reset", { kind: "reset" }, unknown("connection_lost")],
    ["truncated audio", { kind: "truncated" }, unknown("connection_lost")],
    ["empty 200", { kind: "empty" }, unknown("bad_answer")],
    ["400 plain", { kind: "bad_request" }, fatal(plain, 400)],
    ["422 list", { kind: "bad_request", status: 422 }, fatal("field required", 422)],
    [
      "400 structured",
      { kind: "bad_request", detail: { status: "x", message: { a: 1 } } },
      fatal(MSG.failed, 400),
    ],
    [
      "400 with a URL",
      { kind: "bad_request", detail: { message: "See https://elevenlabs.io/x?token=s" } },
      fatal(MSG.failed, 400),
    ],
    [
      "401 invalid key",
      {
        kind: "bad_request",
        status: 401,
        detail: { status: "invalid_api_key", message: "Invalid API key" },
      },
      fatal(MSG.keyRejected, 401),
    ],
    [
      "403 bare",
      { kind: "bad_request", status: 403, detail: "Forbidden" },
      fatal(MSG.keyRejected, 403),
    ],
    [
      "401 missing permission",
      {
        kind: "bad_request",
        status: 401,
        detail: { status: "missing_permissions", message: "The API key lacks text_to_speech." },
      },
      fatal("The API key lacks text_to_speech.", 401),
    ],
    ["quota", { kind: "quota_exceeded" }, fatal(MSG.quota, 401)],
  ];

  it.each(cases)("text-to-speech %s", async (_name, fault, expected) => {
    el.fault("tts", fault);
    let err: ProviderError | undefined;
    const calls = await callsDuring(async () => {
      err = await failure(submitRun(runs.tts(), provider({ timeoutMs: 300 })));
    });
    expect(err).toMatchObject(expected);
    expect(err instanceof SubmitOutcomeUnknownError).toBe("outcomeUnknown" in expected);
    expect(calls.tts).toBe(1);
  });

  const makers = { sfx: runs.sfx, isolation: runs.isolation, voices: runs.clone };
  it.each<["sfx" | "isolation" | "voices", FakeElevenLabsFault, object]>([
    ["sfx", { kind: "hang" }, unknown("timeout")],
    ["sfx", { kind: "quota_exceeded" }, fatal(MSG.quota, 401)],
    ["isolation", { kind: "truncated" }, unknown("connection_lost")],
    [
      "isolation",
      { kind: "rate_limit", retryAfter: "2" },
      { kind: "rate_limited", options: { retryAfterMs: 2000 } },
    ],
    ["voices", { kind: "http", status: 503 }, { kind: "retryable" }],
    ["voices", { kind: "malformed" }, unknown("bad_answer", MSG.voiceUnknown)],
    ["voices", { kind: "truncated" }, unknown("connection_lost", MSG.voiceUnknown)],
    ["voices", { kind: "bad_request", status: 422 }, fatal("field required", 422)],
  ])("%s %j", async (route, fault, expected) => {
    const make = makers[route];
    el.fault(route, fault);
    let err: ProviderError | undefined;
    const calls = await callsDuring(async () => {
      err = await failure(submitRun(make(), provider({ timeoutMs: 300 })));
    });
    expect(err).toMatchObject(expected);
    expect(calls[route]).toBe(1);
    expect(calls.tts).toBe(0); // no preview after a failed voices/add
  });

  it("a failed preview keeps the new voice: voice id without audio, the reason in raw", async () => {
    el.fault("tts", { kind: "quota_exceeded" });
    const p = provider();
    let requestId = "";
    const calls = await callsDuring(async () => {
      requestId = await submitRun(runs.clone(), p);
    });
    expect(calls).toMatchObject({ voices: 1, tts: 1 });
    const result = await p.result(CLONE, requestId, { outputs: CLONE_PORTS });
    expect(result).toMatchObject({ media: [], values: { voiceId: el.voices.at(-1) } });
    expect(result.raw).toMatchObject({ previewError: MSG.quota });
  });

  it("a wrong key is rejected without echoing it; an unknown voice shows ElevenLabs' words", async () => {
    const wrong = await failure(submitRun(runs.tts(), provider({ key: "wrong-secret" })));
    expect(wrong).toMatchObject(fatal(MSG.keyRejected, 401));
    expect(wrong.message).not.toContain("wrong-secret");
    const voice = "Xb7hH8MSUJpSbSDYk0k2";
    const missing = await failure(submitRun(runs.tts({ voice }), provider()));
    expect(missing.options.userMessage).toBe(`A voice with the voice_id ${voice} was not found.`);
    el.fault("tts", { kind: "bad_request", detail: { message: `Key ${el.key} is disabled` } });
    expect((await failure(submitRun(runs.tts(), provider()))).options.userMessage).toBe(MSG.failed);
  });

  it("connection refused is retryable: the request provably never left", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure(
      submitRun(runs.tts(), provider({ baseUrl: `http://127.0.0.1:${port}` })),
    );
    expect(err).not.toBeInstanceOf(SubmitOutcomeUnknownError);
    expect(err.kind).toBe("retryable");
  });

  it.each<[string, unknown, string, string | undefined]>([
    ["timeout", new OutboundFetchError("timeout", "t"), "retryable", undefined],
    ["HTTP 503", new OutboundFetchError("http_error", "h", 503), "retryable", undefined],
    ["HTTP 404", new OutboundFetchError("http_error", "h", 404), "fatal", MSG.input],
    ["too large", new OutboundFetchError("too_large", "l"), "fatal", MSG.tooLarge],
  ])("an input download failing with %s sends nothing", async (_n, thrown, kind, userMessage) => {
    const p = provider({ fetchInput: () => Promise.reject(thrown) });
    let err: ProviderError | undefined;
    const calls = await callsDuring(async () => {
      err = await failure(submitRun(runs.clone(), p));
    });
    expect(err).toMatchObject({ kind, options: userMessage ? { userMessage } : {} });
    expect(calls).toEqual({ tts: 0, sfx: 0, voices: 0, isolation: 0 });
  });

  it("an input over the size cap is fatal before anything is sent", async () => {
    const calls = await callsDuring(async () => {
      const err = await failure(submitRun(runs.isolation(), provider({ maxInputBytes: 100 })));
      expect(err).toMatchObject({ kind: "fatal", options: { userMessage: MSG.tooLarge } });
    });
    expect(calls.isolation).toBe(0);
  });
});

describe("elevenlabs provider: answers in memory", () => {
  it("a restart (or cancel) loses the answer: result is retryable and flagged resultLost", async () => {
    const p = provider();
    const requestId = await submitRun(runs.tts(), p);
    const fresh = provider();
    expect((await fresh.status(TTS, requestId)).status).toBe("COMPLETED");
    const want = { kind: "retryable", resultLost: true, options: { userMessage: MSG.resultLost } };
    const lost = await failure(fresh.result(TTS, requestId, { outputs: AUDIO_PORTS }));
    expect(lost).toBeInstanceOf(ElevenLabsResultLostError);
    expect(lost).toMatchObject(want);
    await p.cancel(TTS, requestId);
    expect(await failure(p.result(TTS, requestId))).toMatchObject(want);
  });

  it("without ports the media go to `audio`; invalid ids are fatal", async () => {
    const p = provider();
    const requestId = await submitRun(runs.clone(), p);
    const result = await p.result(CLONE, requestId);
    expect(result.media[0]?.output).toBe("audio");
    expect(result.values).toEqual({ voiceId: el.voices.at(-1) });
    expect(await failure(p.status(TTS, "../v1/user"))).toMatchObject({ kind: "fatal" });
    expect(
      await failure(p.submit({ endpoint: "v1/user", input: {}, idempotencyKey: "k" })),
    ).toMatchObject({
      kind: "fatal",
      options: { userMessage: MSG.unknownEndpoint },
    });
  });

  it("keeps at most maxSyncResults answers, dropping the oldest", async () => {
    const p = provider({ maxSyncResults: 2 });
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await submitRun(runs.sfx(), p));
    await failure(p.result(SFX, ids[0] ?? ""));
    expect((await p.result(SFX, ids[2] ?? "")).media).toHaveLength(1);
  });
});
