import { z } from "zod";

const count = (fallback: number) => z.coerce.number().int().min(1).max(1_000_000).default(fallback);
/** A spend budget in US dollars; unset: no budget. */
const dollars = () => z.coerce.number().min(0).max(1_000_000).optional();
const megabytes = (fallback: number) =>
  z.coerce.number().int().min(1).max(1_048_576).default(fallback);

/**
 * Abuse limits (read with the rest of env.ts). "Address" is the client's IP address (see
 * TRUST_PROXY); "session" is the signed-in account or the anonymous browser session.
 */
export const zLimitsEnv = z.object({
  /** Sign-in and sign-up attempts per address and minute. */
  RATE_LIMIT_SIGN_IN_PER_MINUTE: count(20),
  /** Generations started (POST /api/generate/*) per session and minute. */
  RATE_LIMIT_GENERATIONS_PER_MINUTE: count(60),
  /** Generations started by anonymous sessions per address and minute, all together. */
  RATE_LIMIT_ANONYMOUS_GENERATIONS_PER_MINUTE: count(20),
  /** Generations started per anonymous session and minute. */
  ANONYMOUS_GENERATIONS_PER_MINUTE: count(10),
  /** Jobs queued or running at once per user (an admin may set another per user). */
  CONCURRENT_JOBS_PER_USER: count(8),
  /** Jobs queued or running at once per anonymous session. */
  CONCURRENT_JOBS_PER_ANONYMOUS: count(2),
  /** Jobs queued or running at once for all anonymous sessions of one address together. */
  CONCURRENT_JOBS_PER_ANONYMOUS_ADDRESS: count(6),
  /** Uploads (POST /api/media) per address and minute. */
  RATE_LIMIT_UPLOADS_PER_MINUTE: count(60),
  /** Uploads per session (or, signed out, per address) and minute. */
  RATE_LIMIT_UPLOADS_PER_SESSION_PER_MINUTE: count(30),
  /** Upload bytes per session (or, signed out, per address) and minute. */
  UPLOAD_MB_PER_MINUTE: megabytes(250),
  /** Upload bytes per address and minute. */
  UPLOAD_MB_PER_MINUTE_PER_ADDRESS: megabytes(1000),
  /** Bytes an anonymous session (or a signed-out browser) may store by upload a day. */
  ANONYMOUS_UPLOAD_MB_PER_DAY: megabytes(200),
  /** Bytes all anonymous uploads from one address may store a day. */
  ANONYMOUS_UPLOAD_MB_PER_DAY_PER_ADDRESS: megabytes(1000),
  /** Event streams (workflow and queue events together) open at once per session. */
  EVENT_STREAMS_PER_USER: count(16),
  /** Event streams of anonymous sessions open at once per address, all together. */
  ANONYMOUS_EVENT_STREAMS_PER_ADDRESS: count(32),
  /** Large saves staged and not yet committed per user (in this process). */
  STAGED_SAVES_PER_USER: count(8),
  /** Bytes of those staged batches per user, in memory and in storage together. */
  SAVE_STAGING_MB_PER_USER: megabytes(64),
  /** What each user (anonymous sessions too) may spend a day (UTC), in US dollars. */
  BUDGET_USER_DAILY_USD: dollars(),
  /** What each user may spend a calendar month (UTC), in US dollars. */
  BUDGET_USER_MONTHLY_USD: dollars(),
  /** What all anonymous sessions from one address may spend a day (UTC), in US dollars. */
  BUDGET_ANONYMOUS_DAILY_USD_PER_ADDRESS: dollars(),
  /**
   * A model with no published price, when a budget applies: run it uncounted (allow) or
   * refuse it (refuse), so that nothing escapes the budget.
   */
  UNPRICED_RUNS: z.enum(["allow", "refuse"]).default("allow"),
  /** What the whole instance may spend a day (UTC), in US dollars. */
  BUDGET_INSTANCE_DAILY_USD: dollars(),
  /** What the whole instance may spend a calendar month (UTC), in US dollars. */
  BUDGET_INSTANCE_MONTHLY_USD: dollars(),
});

/** Every abuse limit; bytes unless the name says otherwise. */
export interface AbuseLimits {
  signInPerMinute: number;
  generationsPerMinute: number;
  anonymousGenerationsPerMinutePerAddress: number;
  anonymousGenerationsPerMinute: number;
  concurrentJobsPerUser: number;
  concurrentJobsPerAnonymous: number;
  concurrentJobsPerAnonymousAddress: number;
  uploadsPerMinute: number;
  uploadsPerMinutePerSession: number;
  uploadBytesPerMinute: number;
  uploadBytesPerMinutePerAddress: number;
  anonymousUploadBytesPerDay: number;
  anonymousUploadBytesPerDayPerAddress: number;
  eventStreamsPerUser: number;
  anonymousEventStreamsPerAddress: number;
  stagedSavesPerUser: number;
  stagedSaveBytesPerUser: number;
  budgets: SpendBudgets;
}

/** Spend budgets in US dollars; null: none. An admin may set a user's own. */
export interface SpendBudgets {
  userDailyUsd: number | null;
  userMonthlyUsd: number | null;
  /** All anonymous sessions of one address together, a day. */
  anonymousDailyUsdPerAddress: number | null;
  instanceDailyUsd: number | null;
  instanceMonthlyUsd: number | null;
  /** Refuse models with no published price when a budget applies (UNPRICED_RUNS=refuse). */
  refuseUnpriced: boolean;
}

const MB = 1024 * 1024;

export function limitsConfig(env: z.infer<typeof zLimitsEnv>): AbuseLimits {
  return {
    signInPerMinute: env.RATE_LIMIT_SIGN_IN_PER_MINUTE,
    generationsPerMinute: env.RATE_LIMIT_GENERATIONS_PER_MINUTE,
    anonymousGenerationsPerMinutePerAddress: env.RATE_LIMIT_ANONYMOUS_GENERATIONS_PER_MINUTE,
    anonymousGenerationsPerMinute: env.ANONYMOUS_GENERATIONS_PER_MINUTE,
    concurrentJobsPerUser: env.CONCURRENT_JOBS_PER_USER,
    concurrentJobsPerAnonymous: env.CONCURRENT_JOBS_PER_ANONYMOUS,
    concurrentJobsPerAnonymousAddress: env.CONCURRENT_JOBS_PER_ANONYMOUS_ADDRESS,
    uploadsPerMinute: env.RATE_LIMIT_UPLOADS_PER_MINUTE,
    uploadsPerMinutePerSession: env.RATE_LIMIT_UPLOADS_PER_SESSION_PER_MINUTE,
    uploadBytesPerMinute: env.UPLOAD_MB_PER_MINUTE * MB,
    uploadBytesPerMinutePerAddress: env.UPLOAD_MB_PER_MINUTE_PER_ADDRESS * MB,
    anonymousUploadBytesPerDay: env.ANONYMOUS_UPLOAD_MB_PER_DAY * MB,
    anonymousUploadBytesPerDayPerAddress: env.ANONYMOUS_UPLOAD_MB_PER_DAY_PER_ADDRESS * MB,
    eventStreamsPerUser: env.EVENT_STREAMS_PER_USER,
    anonymousEventStreamsPerAddress: env.ANONYMOUS_EVENT_STREAMS_PER_ADDRESS,
    stagedSavesPerUser: env.STAGED_SAVES_PER_USER,
    stagedSaveBytesPerUser: env.SAVE_STAGING_MB_PER_USER * MB,
    budgets: {
      userDailyUsd: env.BUDGET_USER_DAILY_USD ?? null,
      userMonthlyUsd: env.BUDGET_USER_MONTHLY_USD ?? null,
      anonymousDailyUsdPerAddress: env.BUDGET_ANONYMOUS_DAILY_USD_PER_ADDRESS ?? null,
      instanceDailyUsd: env.BUDGET_INSTANCE_DAILY_USD ?? null,
      instanceMonthlyUsd: env.BUDGET_INSTANCE_MONTHLY_USD ?? null,
      refuseUnpriced: env.UNPRICED_RUNS === "refuse",
    },
  };
}
