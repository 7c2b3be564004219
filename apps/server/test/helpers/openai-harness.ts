import { afterAll, beforeAll, expect } from "vitest";
import {
  createOpenAIProvider,
  type OpenAIProviderOptions,
} from "../../src/providers/openai/openai-provider.ts";
import {
  type GenerationProvider,
  type NodeRun,
  ProviderError,
} from "../../src/providers/provider.ts";
import { type FakeOpenAI, type FakeOpenAIRoute, startFakeOpenAI } from "../fakes/openai-server.ts";
import { pngBytes } from "./files.ts";

/** Shared setup for the OpenAI provider tests: each test file starts its own fake. */
export let oa: FakeOpenAI;
export let inputPng: Buffer;
export const fetched: string[] = [];

/** Starts the fake OpenAI before the file's tests and closes it after them. */
export function useFakeOpenAI(): void {
  beforeAll(async () => {
    oa = await startFakeOpenAI();
    inputPng = await pngBytes(40, 30);
  });
  afterAll(() => oa.close());
}

export const VIDEO = "v1/videos";
export const IMAGE = "gpt-image-1";
export const VIDEO_PORTS = [
  { id: "video", type: "video" },
  { id: "capturedFrame", type: "image" },
];
export const IMAGE_PORTS = [{ id: "image", type: "image" }];
export const url = (name: string) => `https://media.example/in/${name}`;

/** The engine's fetchInput stand-in: serves a PNG for any URL and records what was asked. */
const fetchInput = async (u: string) => {
  fetched.push(u);
  return { bytes: new Uint8Array(inputPng), contentType: "image/png" };
};
export const provider = (extra: Partial<OpenAIProviderOptions> = {}) =>
  createOpenAIProvider({ key: oa.key, baseUrl: oa.url, fetchInput, ...extra });
export const run = (
  nodeType: string,
  endpoint: string,
  inputs: NodeRun["inputs"],
  params = {},
) => ({
  nodeType,
  endpoint,
  inputs,
  params,
});
export const build = (r: NodeRun) => createOpenAIProvider({ key: "k" }).buildInput(r);
export const imageRun = (inputs: NodeRun["inputs"] = {}, params = {}) =>
  run("gpt-image", IMAGE, { prompt: "a red fox", ...inputs }, params);
export const videoRun = (inputs: NodeRun["inputs"] = {}, params = {}) =>
  run("sora-video", VIDEO, { prompt: "waves at dusk", ...inputs }, { size: "1280x720", ...params });
export const submitRun = (r: NodeRun, p: GenerationProvider = provider()) =>
  p.submit({ endpoint: r.endpoint, input: p.buildInput(r), idempotencyKey: "job" });

/** Runs `fn` and returns how many calls a route received meanwhile. */
export async function callsDuring(
  route: FakeOpenAIRoute,
  fn: () => Promise<unknown>,
): Promise<number> {
  const before = oa.counters.calls[route];
  await fn();
  return oa.counters.calls[route] - before;
}

/** The error a promise rejects with; never carrying the key. */
export async function failure(promise: Promise<unknown>): Promise<ProviderError> {
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
export async function completedVideo(p: GenerationProvider = provider()) {
  const { requestId } = await submitRun(videoRun(), p);
  for (let i = 0; i < 10 && (await p.status(VIDEO, requestId)).status !== "COMPLETED"; i++);
  return requestId;
}
