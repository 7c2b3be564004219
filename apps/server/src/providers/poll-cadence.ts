/** How often the engine may read one job's status at a provider (see jobs/cadence.ts). */
export interface PollCadence {
  /** Wait before the first read after submit: 0 where a submit can hold the answer. */
  firstMs: number;
  /** Shortest wait between two reads (the provider's minimum, e.g. Runway's 5 s). */
  minMs: number;
  /** Longest wait between two reads while polling. */
  maxMs: number;
  /** With a webhook registered: the safety-net read's interval. */
  webhookSafetyMs: number;
}

/** The longest polling wait by default: a finished job is noticed within 15 s. */
export const MAX_POLL_MS = 15_000;
