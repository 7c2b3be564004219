import { describe, expect, it } from "vitest";
import {
  ElevenLabsResultLostError,
  ELEVENLABS_USER_MESSAGES as MSG,
} from "../src/providers/elevenlabs/elevenlabs-provider.ts";
import { FAKE_MP3, FAKE_PREMADE_VOICE as RACHEL } from "./fakes/elevenlabs-server.ts";
import {
  AUDIO_PORTS,
  build,
  CLONE,
  CLONE_PARAMS,
  CLONE_PORTS,
  callsDuring,
  el,
  failure,
  ISOLATE,
  inputs,
  provider,
  run,
  runs,
  SAMPLE,
  SAMPLE_URL,
  SFX,
  SFX_PARAMS,
  submitRun,
  TTS,
  useFakeElevenLabs,
  V3,
} from "./helpers/elevenlabs-harness.ts";

// Request bodies, happy paths and answers kept in memory; faults live in
// elevenlabs-provider-faults.test.ts.
useFakeElevenLabs();

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
