import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/env.ts";
import {
  firstCheckMs,
  nextCheckMs,
  pollDelayMs,
  readsUntil,
  WEBHOOK_SAFETY_POLL_MS,
} from "../src/jobs/cadence.ts";
import { MAX_POLL_MS, type PollCadence } from "../src/providers/poll-cadence.ts";
import { createProviders } from "../src/providers/registry.ts";
import { RUNWAY_MIN_POLL_MS } from "../src/providers/runway/runway-provider.ts";
import { createSafeFetcher } from "../src/providers/safe-fetch.ts";
import type { BlobStore } from "../src/storage/blob-store.ts";

/** The status-read schedule as pure functions (ADR 0005, "Status checks"). */
const fal: PollCadence = {
  firstMs: 3000,
  minMs: 3000,
  maxMs: MAX_POLL_MS,
  webhookSafetyMs: WEBHOOK_SAFETY_POLL_MS,
};
const gaps = (reads: number[]) => reads.slice(1).map((age, i) => age - (reads[i] ?? 0));

describe("polling backoff", () => {
  it("waits 0.8 × the job's age, between the provider's minimum and 15 s", () => {
    expect(pollDelayMs(0, fal)).toBe(3000);
    expect(pollDelayMs(3000, fal)).toBe(3000);
    expect(pollDelayMs(6000, fal)).toBe(4800);
    expect(pollDelayMs(10_000, fal)).toBe(8000);
    expect(pollDelayMs(60_000, fal)).toBe(15_000);
    expect(pollDelayMs(-5, fal)).toBe(3000);
  });

  it("reads a 60 s job at most 8 times, and a 5 s image within a second of its end", () => {
    expect(readsUntil(60_000, fal)).toEqual([3000, 6000, 10_800, 19_440, 34_440, 49_440, 64_440]);
    expect(readsUntil(60_000, fal).length).toBeLessThanOrEqual(8);
    expect(readsUntil(5000, fal)).toEqual([3000, 6000]);
    expect(readsUntil(2000, fal)).toEqual([3000]);
  });

  it("never waits more than 15 s, so a long job is noticed soon after it ends", () => {
    const reads = readsUntil(14 * 60_000, fal);
    expect(Math.max(...gaps(reads))).toBe(MAX_POLL_MS);
    expect((reads.at(-1) ?? 0) - 14 * 60_000).toBeLessThan(MAX_POLL_MS);
  });

  it("keeps a provider's minimum (Runway: one read per task every 5 s)", () => {
    const runway = { ...fal, firstMs: RUNWAY_MIN_POLL_MS, minMs: RUNWAY_MIN_POLL_MS };
    const reads = readsUntil(60_000, runway);
    expect(gaps(reads).every((gap) => gap >= RUNWAY_MIN_POLL_MS)).toBe(true);
    expect(reads.length).toBeLessThanOrEqual(8);
  });

  it("a fixed cadence (min = max) stays fixed", () => {
    const fixed = { firstMs: 30, minMs: 30, maxMs: 30, webhookSafetyMs: 30 };
    expect(new Set(gaps(readsUntil(1000, fixed)))).toEqual(new Set([30]));
  });
});

describe("with a webhook registered", () => {
  it("does not poll: only the safety net reads the job", () => {
    expect(firstCheckMs(fal, true)).toBe(WEBHOOK_SAFETY_POLL_MS);
    expect(nextCheckMs(5000, fal, true)).toBe(WEBHOOK_SAFETY_POLL_MS);
    // A 60 s job is not read at all before its webhook; a lost one is found within 2 min.
    expect(readsUntil(60_000, fal, true)).toEqual([WEBHOOK_SAFETY_POLL_MS]);
  });
});

describe("each provider's cadence", () => {
  const registry = (env: Record<string, string> = {}) => {
    const config = loadConfig({
      DATA_DIR: "/tmp/atelier-cadence-test",
      AUTH_SECRET: "cadence-secret-cadence-secret-cadence-0",
      FAL_KEY: "k",
      RUNWAY_API_KEY: "k",
      OPENAI_API_KEY: "k",
      FFMPEG_PATH: "off",
      ...env,
    });
    const fetcher = createSafeFetcher({ allowHosts: [] });
    return createProviders(config, { store: {} as BlobStore, fetcher });
  };

  it("queues are first read after their minimum; synchronous APIs at once", () => {
    const providers = registry();
    expect(providers.cadence("fal")).toEqual(fal);
    expect(providers.cadence("runway")).toMatchObject({
      firstMs: RUNWAY_MIN_POLL_MS,
      minMs: RUNWAY_MIN_POLL_MS,
    });
    expect(providers.cadence("openai").firstMs).toBe(0);
  });

  it("the offline provider keeps its fast fixed pace", () => {
    const local = registry({ LOCAL_PROVIDER_STEP_MS: "400" }).cadence("local");
    expect(local).toEqual({ firstMs: 0, minMs: 200, maxMs: 200, webhookSafetyMs: 200 });
  });

  it("PROVIDER_POLL_MS fixes every interval; JOB_WEBHOOK_SAFETY_POLL_MS sets the safety net", () => {
    expect(registry({ PROVIDER_POLL_MS: "30" }).cadence("fal")).toEqual({
      firstMs: 30,
      minMs: 30,
      maxMs: 30,
      webhookSafetyMs: 30,
    });
    expect(registry({ JOB_WEBHOOK_SAFETY_POLL_MS: "300000" }).cadence("fal").webhookSafetyMs).toBe(
      300_000,
    );
  });
});
