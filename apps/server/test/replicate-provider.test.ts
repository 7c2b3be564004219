import { getNodeDefinition, PROVIDER_RUNS, resolveRunTarget } from "@atelier/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type NodeRun,
  ProviderError,
  SubmitOutcomeUnknownError,
} from "../src/providers/provider.ts";
import { progressFromLogs } from "../src/providers/replicate/replicate-input.ts";
import {
  buildReplicateInput,
  createReplicateProvider,
  REPLICATE_MODELS,
  REPLICATE_USER_MESSAGES,
  type ReplicateProviderOptions,
} from "../src/providers/replicate/replicate-provider.ts";
import {
  createReplicateWebhookVerifier,
  fetchReplicateWebhookSecret,
  signReplicateWebhook,
} from "../src/providers/replicate/webhook.ts";
import { type FakeReplicate, startFakeReplicate } from "./fakes/replicate-server.ts";

let fake: FakeReplicate;
beforeAll(async () => {
  fake = await startFakeReplicate();
});
afterAll(() => fake.close());

const AUDIO = "stability-ai/stable-audio-2.5";
const provider = (extra: Partial<ReplicateProviderOptions> = {}) =>
  createReplicateProvider({
    key: fake.key,
    baseUrl: fake.url,
    allowMediaHosts: [new URL(fake.url).host],
    defaultRetryAfterMs: 1234,
    ...extra,
  });
const submit = (p = provider(), webhookUrl: string | null = null) =>
  p.submit({ endpoint: AUDIO, input: { prompt: "rain" }, idempotencyKey: "k", webhookUrl });

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
  expect(`${message} ${options.userMessage ?? ""}`).not.toContain(fake.key);
  return err as ProviderError;
}

describe("replicate buildInput", () => {
  const a = "https://media.example/a.png";
  const b = "https://media.example/b.png";
  const v = "https://media.example/v.mp4";

  it("is the catalogue's replicate variant of each node it maps, and wins with only its key", () => {
    const mapped = ["stable-audio", "runway-aleph", "motion-2"];
    const variants = mapped.map((type) => PROVIDER_RUNS[type]?.variants?.replicate);
    expect(variants).toEqual(Object.keys(REPLICATE_MODELS));
    const definition = getNodeDefinition("stable-audio");
    if (!definition) throw new Error("no stable-audio");
    const target = resolveRunTarget(definition, new Set(), {}, new Set(["replicate"]));
    expect(target).toEqual({ kind: "provider", provider: "replicate", endpoint: AUDIO });
  });

  it.each<[string, NodeRun, Record<string, unknown>]>([
    [
      "stable audio with its defaults",
      run("stable-audio", AUDIO, {}, { prompt: "rain on a tin roof", seed: 7 }),
      { prompt: "rain on a tin roof", duration: 190, steps: 8, cfg_scale: 1, seed: 7 },
    ],
    [
      "aleph: video, references, a ratio Replicate names, wired prompt wins",
      run(
        "runway-aleph",
        "runwayml/gen4-aleph",
        { prompt: "wired", video1: v, referenceImages: [a] },
        { prompt: "typed", ratio: "720:1280" },
      ),
      { prompt: "wired", video: v, aspect_ratio: "9:16", reference_images: [a] },
    ],
    [
      "aleph: a ratio with no plain equivalent is left to the model",
      run("runway-aleph", "runwayml/gen4-aleph", { video1: v }, { prompt: "p", ratio: "848:480" }),
      { prompt: "p", video: v },
    ],
    [
      "motion 2.0 from a first frame",
      run(
        "motion-2",
        "leonardoai/motion-2.0",
        { image: b },
        { prompt: "a dolly in", negativePrompt: "blur", aspectRatio: "4:5" },
      ),
      { prompt: "a dolly in", image: b, aspect_ratio: "4:5", negative_prompt: "blur" },
    ],
  ])("%s", (_name, nodeRun, expected) => {
    expect(buildReplicateInput(nodeRun)).toEqual(expected);
  });

  it("refuses unknown models and a video node without its media", () => {
    expect(() => buildReplicateInput(run("stable-audio", "fal-ai/x"))).toThrow(ProviderError);
    const noVideo = run("runway-aleph", "runwayml/gen4-aleph", {}, { prompt: "p" });
    expect(() => buildReplicateInput(noVideo)).toThrow(ProviderError);
    try {
      buildReplicateInput(noVideo);
    } catch (err) {
      expect((err as ProviderError).options.userMessage).toBe(REPLICATE_USER_MESSAGES.noMedia);
    }
  });

  it("reads progress from the last tqdm percentage in the logs", () => {
    expect(progressFromLogs(undefined)).toBeNull();
    expect(progressFromLogs("Loading weights\nready")).toBeNull();
    expect(progressFromLogs(" 10%|█ | 1/10\n 70%|███████ | 7/10")).toBe(70);
  });
});

describe("replicate provider", () => {
  it("creates once, reports progress and logs, and maps the output onto the node's port", async () => {
    const p = provider();
    const { requestId } = await submit(p, "https://atelier.example/api/callbacks/replicate/t");
    const sent = fake.requests.find((r) => r.id === requestId);
    expect(sent?.model).toBe(AUDIO);
    expect(sent?.body).toEqual({
      input: { prompt: "rain" },
      webhook: "https://atelier.example/api/callbacks/replicate/t",
      webhook_events_filter: ["completed"],
    });
    const first = await p.status(AUDIO, requestId);
    expect(first).toMatchObject({ status: "IN_QUEUE", progress: null, logs: [] });
    const second = await p.status(AUDIO, requestId);
    expect(second.status).toBe("IN_PROGRESS");
    expect(second.progress).toBe(40);
    expect(second.logs.map((l) => l.message)).toEqual([
      "Loading model",
      "40%|████      | 4/10 [00:01<00:01]",
    ]);
    expect((await p.status(AUDIO, requestId)).status).toBe("COMPLETED");
    const result = await p.result(AUDIO, requestId, { outputs: [{ id: "audio", type: "audio" }] });
    expect(result.media).toEqual([{ output: "audio", url: expect.stringMatching(/\.wav$/) }]);
    const media = await fetch(result.media[0]?.url ?? "");
    expect(media.headers.get("content-type")).toBe("audio/wav");
  });

  it("sends no webhook fields without a webhook URL", async () => {
    const { requestId } = await submit();
    expect(fake.requests.find((r) => r.id === requestId)?.body).toEqual({
      input: { prompt: "rain" },
    });
  });

  it("reports a failed prediction with the model's error, made safe", async () => {
    fake.script("next", [{ status: "failed", error: `CUDA out of memory\u0007 (${fake.key})` }]);
    const p = provider();
    const { requestId } = await submit(p);
    const status = await p.status(AUDIO, requestId);
    expect(status.status).toBe("FAILED");
    expect(status.error).toBe("CUDA out of memory (***)");
    const err = await failure(p.result(AUDIO, requestId));
    expect(err.kind).toBe("fatal");
    expect(err.options.userMessage).toBe("CUDA out of memory (***)");
  });

  it("cancels a running prediction, which then reads CANCELLED", async () => {
    fake.script("next", [{ status: "processing" }]);
    const p = provider();
    const { requestId } = await submit(p);
    await p.cancel(AUDIO, requestId);
    expect((await p.status(AUDIO, requestId)).status).toBe("CANCELLED");
    await p.cancel(AUDIO, "gone0000000000000000000000"); // 404: already gone, not a failure
  });

  it("429 → rate_limited with Retry-After (or the default wait); nothing created", async () => {
    const before = fake.counters.created;
    fake.fault("create", { kind: "rate_limit", retryAfter: "3" });
    const err = await failure(submit());
    expect(err.kind).toBe("rate_limited");
    expect(err.options.retryAfterMs).toBe(3000);
    fake.fault("get", { kind: "rate_limit", retryAfter: null as unknown as string });
    const { requestId } = await submit();
    const read = await failure(provider().status(AUDIO, requestId));
    expect(read).toMatchObject({ kind: "rate_limited", options: { retryAfterMs: 1234 } });
    expect(fake.counters.created).toBe(before + 1);
  });

  it("5xx: a read is retryable, a create's outcome is unknown (never resent)", async () => {
    const { requestId } = await submit();
    fake.fault("get", { kind: "http", status: 503 });
    expect((await failure(provider().status(AUDIO, requestId))).kind).toBe("retryable");
    fake.fault("create", { kind: "http", status: 502 });
    const err = await failure(submit());
    expect(err).toBeInstanceOf(SubmitOutcomeUnknownError);
    expect(err.options.userMessage).toBe(REPLICATE_USER_MESSAGES.outcomeUnknown);
    fake.fault("create", { kind: "no_id" });
    expect(await failure(submit())).toBeInstanceOf(SubmitOutcomeUnknownError);
  });

  it("4xx: a rejected token, Replicate's validation text, an unknown model", async () => {
    const rejected = await failure(submit(provider({ key: "r8_wrong" })));
    expect(rejected).toMatchObject({ kind: "fatal" });
    expect(rejected.options.userMessage).toBe(REPLICATE_USER_MESSAGES.keyRejected);
    fake.fault("create", { kind: "http", status: 422, detail: "input.duration: must be <= 190" });
    const invalid = await failure(submit());
    expect(invalid.options.userMessage).toBe("input.duration: must be <= 190");
    const unknown = await failure(
      provider().submit({ endpoint: "someone/else", input: {}, idempotencyKey: "k" }),
    );
    expect(unknown.options.userMessage).toBe(REPLICATE_USER_MESSAGES.unknownEndpoint);
  });

  it("refuses an output at a private address", async () => {
    const p = provider();
    const { requestId } = await submit(p);
    fake.fault("get", { kind: "private_url" });
    expect((await failure(p.result(AUDIO, requestId))).kind).toBe("fatal");
  });
});

describe("replicate webhooks", () => {
  const body = JSON.stringify({ id: "abc123", status: "succeeded" });
  const now = () => 1_800_000_000_000;
  const seconds = 1_800_000_000;
  const headers = (secret: string, timestamp = seconds, id = "msg_1") => ({
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signReplicateWebhook(secret, id, timestamp, body),
  });

  it("reads the account's secret from the API, once", async () => {
    const reads = fake.counters.secretReads;
    const loadSecret = () => fetchReplicateWebhookSecret({ key: fake.key, baseUrl: fake.url });
    const verifier = createReplicateWebhookVerifier({ loadSecret, now });
    expect(await verifier.verify(headers(fake.secret), body)).toEqual({
      ok: true,
      predictionId: "abc123",
      status: "succeeded",
    });
    await verifier.verify(headers(fake.secret), body);
    expect(fake.counters.secretReads).toBe(reads + 1);
    expect(await fetchReplicateWebhookSecret({ key: "r8_wrong", baseUrl: fake.url })).toBeNull();
  });

  it("accepts any listed v1 signature; refuses bad, stale, missing and tampered ones", async () => {
    const verifier = createReplicateWebhookVerifier({ secret: fake.secret, now });
    const good = headers(fake.secret);
    const several = { ...good, "webhook-signature": `v1,AAAA ${good["webhook-signature"]}` };
    expect((await verifier.verify(several, body)).ok).toBe(true);
    const other = `whsec_${Buffer.from("another secret").toString("base64")}`;
    expect(await verifier.verify(headers(other), body)).toEqual({
      ok: false,
      reason: "bad_signature",
    });
    expect(await verifier.verify(headers(fake.secret, seconds - 301), body)).toEqual({
      ok: false,
      reason: "stale_timestamp",
    });
    expect(await verifier.verify(good, body.replace("succeeded", "failed"))).toMatchObject({
      reason: "bad_signature",
    });
    const { "webhook-signature": _, ...unsigned } = good;
    expect(await verifier.verify(unsigned, body)).toMatchObject({ reason: "missing_headers" });
  });

  it("says the secret is unavailable when the API cannot give it", async () => {
    fake.fault("secret", { kind: "http", status: 503 });
    const loadSecret = () => fetchReplicateWebhookSecret({ key: fake.key, baseUrl: fake.url });
    const verifier = createReplicateWebhookVerifier({ loadSecret, now });
    expect(await verifier.verify(headers(fake.secret), body)).toEqual({
      ok: false,
      reason: "secret_unavailable",
    });
  });
});
