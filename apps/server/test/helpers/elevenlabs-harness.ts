import { afterAll, beforeAll, expect } from "vitest";
import {
  createElevenLabsProvider,
  type ElevenLabsProviderOptions,
  type FetchInput,
} from "../../src/providers/elevenlabs/elevenlabs-provider.ts";
import {
  type GenerationProvider,
  type NodeRun,
  ProviderError,
} from "../../src/providers/provider.ts";
import {
  type FakeElevenLabs,
  type FakeElevenLabsRoute,
  startFakeElevenLabs,
} from "../fakes/elevenlabs-server.ts";
import { wavBytes } from "./files.ts";

/** Shared setup for the ElevenLabs provider tests: each test file starts its own fake. */
export let el: FakeElevenLabs;

/** Starts the fake ElevenLabs before the file's tests and closes it after them. */
export function useFakeElevenLabs(): void {
  beforeAll(async () => {
    el = await startFakeElevenLabs();
  });
  afterAll(() => el.close());
}

export const TTS = "v1/text-to-speech";
export const SFX = "v1/sound-generation";
export const CLONE = "v1/voices/add";
export const ISOLATE = "v1/audio-isolation";
export const AUDIO_PORTS = [{ id: "audio", type: "audio" }];
export const CLONE_PORTS = [
  { id: "voiceId", type: "text" },
  { id: "audio", type: "audio" },
];
export const SAMPLE_URL = "https://media.example/api/media/file/u1/sample.wav";
export const SAMPLE = wavBytes(1600);

/** Serves SAMPLE for every URL and records what was asked. */
export function inputs() {
  const asked: string[] = [];
  const fetchInput: FetchInput = async (url) => {
    asked.push(url);
    return { bytes: new Uint8Array(SAMPLE), contentType: "audio/wav" };
  };
  return { asked, fetchInput };
}
export const provider = (extra: Partial<ElevenLabsProviderOptions> = {}) =>
  createElevenLabsProvider({
    key: el.key,
    baseUrl: el.url,
    fetchInput: inputs().fetchInput,
    ...extra,
  });
export const run = (
  endpoint: string,
  inputs: NodeRun["inputs"],
  params: NodeRun["params"] = {},
) => ({
  nodeType: { [TTS]: "elevenlabs-v3", [SFX]: "elevenlabs-sfx", [CLONE]: "voice-clone" }[
    endpoint
  ] as string,
  endpoint,
  inputs,
  params,
});
export const build = (r: NodeRun) => createElevenLabsProvider({ key: "k" }).buildInput(r);
export const V3 = { text: "", voice: "Rachel", stability: "0.5", languageCode: "", seed: null };
export const SFX_PARAMS = { prompt: "", durationSeconds: 5, promptInfluence: 0.3, loop: false };
export const CLONE_PARAMS = {
  name: "My voice",
  text: "Hello! This is my cloned voice.",
  removeBackgroundNoise: true,
};
export const runs = {
  tts: (params = {}) => run(TTS, { text: "Hello there" }, { ...V3, ...params }),
  sfx: () => run(SFX, { prompt: "A door creaks" }, SFX_PARAMS),
  clone: () => run(CLONE, { media: SAMPLE_URL }, CLONE_PARAMS),
  isolation: () => run(ISOLATE, { media: SAMPLE_URL }),
};

/** Builds and submits a node run; returns the request id. */
export async function submitRun(r: NodeRun, p: GenerationProvider = provider()) {
  const input = p.buildInput(r);
  return (await p.submit({ endpoint: r.endpoint, input, idempotencyKey: "job" })).requestId;
}
/** Calls per route made while `fn` ran. */
export async function callsDuring(fn: () => Promise<unknown>) {
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
export async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  const e = err as ProviderError;
  expect(`${e.message} ${e.options.userMessage ?? ""}`).not.toContain(el.key);
  return e;
}
