import type { PollCadence } from "../providers/poll-cadence.ts";

/**
 * How often the engine asks a provider about one job (ADR 0005, "Status checks").
 *
 * - Polling: the wait between two status reads grows with the job's age (time since it was
 *   submitted): `clamp(0.8 × age, minMs, maxMs)`. A 5 s image is read at 3 s and 6 s; a 60 s
 *   video at 3, 6, 10.8, 19.4, 34.4, 49.4 and 64.4 s — 7 reads instead of 20.
 * - With a webhook/callback registered the provider tells us when the job changes: no
 *   periodic polling, only a safety-net read every `webhookSafetyMs` (and the stale-job
 *   sweeper) so a lost webhook cannot strand the job until the 15-minute timeout.
 * - A 429's Retry-After, when longer, wins over both (see steps.ts).
 */
/** The wait grows as 0.8 × the job's age: about five reads per tenfold of running time. */
export const BACKOFF_FACTOR = 0.8;
/** The default safety-net interval of a job that waits for a webhook. */
export const WEBHOOK_SAFETY_POLL_MS = 120_000;

/** The wait before the next status read of a job submitted `ageMs` ago (polling). */
export function pollDelayMs(ageMs: number, cadence: PollCadence): number {
  const upper = Math.max(cadence.maxMs, cadence.minMs);
  const wanted = Math.round(BACKOFF_FACTOR * Math.max(0, ageMs));
  return Math.min(upper, Math.max(cadence.minMs, wanted));
}

/** The wait before the next read, polling or (`hooked`) waiting for a webhook. */
export function nextCheckMs(ageMs: number, cadence: PollCadence, hooked: boolean): number {
  return hooked ? cadence.webhookSafetyMs : pollDelayMs(ageMs, cadence);
}

/** The wait before the first read after submit. */
export function firstCheckMs(cadence: PollCadence, hooked: boolean): number {
  return hooked ? cadence.webhookSafetyMs : cadence.firstMs;
}

/**
 * The ages (ms since submit) at which a job that finishes `durationMs` after submit is read,
 * the last one being the read that sees it finished: the schedule without scheduling delays.
 */
export function readsUntil(durationMs: number, cadence: PollCadence, hooked = false): number[] {
  const reads: number[] = [];
  let age = firstCheckMs(cadence, hooked);
  for (;;) {
    reads.push(age);
    if (age >= durationMs) return reads;
    age += nextCheckMs(age, cadence, hooked);
  }
}
