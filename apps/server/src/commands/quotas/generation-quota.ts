import { and, count, eq, inArray } from "drizzle-orm";
import type { AppDb } from "../../db/client.ts";
import { jobs, userQuotas } from "../../db/schema.ts";
import { RateLimitedError } from "../../domain/errors.ts";
import type { AbuseLimits } from "../../env-limits.ts";
import { takeFromWindows, type WindowTake } from "./usage-windows.ts";

/** Who starts a generation, and from where. */
export interface Starter {
  id: string;
  isAnonymous: boolean;
  /** The client's address (IPv6 by its /64). */
  address: string;
}

/** Jobs that hold a place: queued or running. */
const ACTIVE_JOB_STATUSES = ["IN_QUEUE", "IN_PROGRESS"] as const;
const MINUTE = 60_000;

/** An admin's overrides for the user, if any. */
async function overridesOf(db: AppDb, userId: string) {
  const [row] = await db.select().from(userQuotas).where(eq(userQuotas.userId, userId));
  return row ?? null;
}

/**
 * Checks and takes a generation start from the starter's quotas, before anything is written:
 * jobs queued or running at once, starts per minute per user (anonymous sessions: per
 * session, and per address for all of them together). Over a limit: 429 naming it, with
 * the wait. State lives in the database, so the limits hold across processes. A run counts
 * as one start and is not refused for jobs at once: its jobs wait their turn in its queue.
 */
export async function takeGenerationQuota(
  db: AppDb,
  limits: AbuseLimits,
  starter: Starter,
  { run = false }: { run?: boolean } = {},
): Promise<void> {
  const own = starter.isAnonymous ? null : await overridesOf(db, starter.id);
  const concurrent = starter.isAnonymous
    ? limits.concurrentJobsPerAnonymous
    : (own?.concurrentJobs ?? limits.concurrentJobsPerUser);
  const [active] = run
    ? [{ n: 0 }]
    : await db
        .select({ n: count() })
        .from(jobs)
        .where(and(eq(jobs.userId, starter.id), inArray(jobs.status, [...ACTIVE_JOB_STATUSES])));
  if (Number(active?.n ?? 0) >= concurrent)
    throw new RateLimitedError(
      `Too many jobs at once: at most ${concurrent} queued or running ${starter.isAnonymous ? "per anonymous session (sign in to run more)" : "per user"}`,
      5,
    );
  // New anonymous sessions are free to make: their jobs at once are counted by address too.
  if (starter.isAnonymous && !run) {
    const max = limits.concurrentJobsPerAnonymousAddress;
    const [fromAddress] = await db
      .select({ n: count() })
      .from(jobs)
      .where(
        and(
          eq(jobs.clientAddress, starter.address),
          inArray(jobs.status, [...ACTIVE_JOB_STATUSES]),
        ),
      );
    if (Number(fromAddress?.n ?? 0) >= max)
      throw new RateLimitedError(
        `Too many jobs at once from this address: at most ${max} queued or running for anonymous sessions (sign in to run more)`,
        5,
      );
  }
  const takes: WindowTake[] = starter.isAnonymous
    ? [
        {
          key: `anon:${starter.id}`,
          max: limits.anonymousGenerationsPerMinute,
          windowMs: MINUTE,
          limit: `Too many generations: at most ${limits.anonymousGenerationsPerMinute} a minute per anonymous session (sign in to run more)`,
        },
        {
          key: `ip:${starter.address}`,
          max: limits.anonymousGenerationsPerMinutePerAddress,
          windowMs: MINUTE,
          limit: `Too many generations from this address: at most ${limits.anonymousGenerationsPerMinutePerAddress} a minute for anonymous sessions (sign in to run more)`,
        },
      ]
    : [
        {
          key: `user:${starter.id}`,
          max: own?.generationsPerMinute ?? limits.generationsPerMinute,
          windowMs: MINUTE,
          limit: `Too many generations: at most ${own?.generationsPerMinute ?? limits.generationsPerMinute} a minute per user`,
        },
      ];
  await takeFromWindows(db, takes);
}
