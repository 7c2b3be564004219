import { getNodeDefinition } from "@atelier/core";
import { afterAll, beforeAll, expect } from "vitest";
import {
  createLumaProvider,
  type LumaProviderOptions,
} from "../../src/providers/luma/luma-provider.ts";
import { type NodeRun, ProviderError } from "../../src/providers/provider.ts";
import { type FakeLuma, startFakeLuma } from "../fakes/luma-server.ts";

/** Shared setup for the Luma provider tests: each test file starts its own fake. */
export let luma: FakeLuma;

/** Starts the fake Luma before the file's tests and closes it after them. */
export function useFakeLuma(): void {
  beforeAll(async () => {
    luma = await startFakeLuma();
  });
  afterAll(() => luma.close());
}

export const VIDEO = "generations/video";
export const videoPorts = [
  { id: "video", type: "video" },
  { id: "capturedFrame", type: "image" },
];
export const provider = (extra: Partial<LumaProviderOptions> = {}) =>
  createLumaProvider({
    key: luma.key,
    baseUrl: luma.url,
    allowMediaHosts: [new URL(luma.url).host],
    ...extra,
  });
export const submit = (p = provider(), input: Record<string, unknown> = { prompt: "x" }) =>
  p.submit({ endpoint: VIDEO, input, idempotencyKey: "k" });

/** A node run as the engine resolves it: the catalogue's parsed params, our inputs. */
export function run(nodeType: string, endpoint: string, inputs = {}, params = {}): NodeRun {
  const definition = getNodeDefinition(nodeType);
  if (!definition) throw new Error(`no node ${nodeType}`);
  return { nodeType, endpoint, inputs, params: definition.params.parse(params) };
}

export async function failure(promise: Promise<unknown>): Promise<ProviderError> {
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
export async function completed(p = provider(), endpoint = VIDEO) {
  const { requestId } = await p.submit({ endpoint, input: { prompt: "x" }, idempotencyKey: "k" });
  for (let i = 0; i < 10 && (await p.status(endpoint, requestId)).status !== "COMPLETED"; i++);
  return requestId;
}
