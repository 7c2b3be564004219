import { lt, sql } from "drizzle-orm";
import type { AppDb } from "../../db/client.ts";
import { usageCounters } from "../../db/schema.ts";
import { RateLimitedError } from "../../domain/errors.ts";

/** One counter a request takes from: at most `max` per `windowMs` for `key`. */
export interface WindowTake {
  key: string;
  max: number;
  windowMs: number;
  /** The refusal's words, naming the limit. */
  limit: string;
}

/** Windows older than this are swept (the longest window is a day). */
const KEEP_MS = 2 * 86_400_000;

/**
 * Takes one from every counter, all or none, in the database (so every process shares them):
 * a counter at its maximum refuses with 429 and the seconds until its window ends, and the
 * other counters of the request are left as they were. An increment is one upsert that also
 * locks the counter's row until the end of the transaction, so two processes cannot both take
 * the last one.
 */
export async function takeFromWindows(
  db: AppDb,
  takes: readonly WindowTake[],
  now = Date.now(),
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const take of takes) {
      const windowStart = new Date(now - (now % take.windowMs));
      const taken = await tx
        .insert(usageCounters)
        .values({ key: take.key, windowStart, count: 1 })
        .onConflictDoUpdate({
          target: [usageCounters.key, usageCounters.windowStart],
          set: { count: sql`${usageCounters.count} + 1` },
          setWhere: sql`${usageCounters.count} < ${take.max}`,
        })
        .returning({ count: usageCounters.count });
      if (taken.length === 0) {
        const waitMs = windowStart.getTime() + take.windowMs - now;
        throw new RateLimitedError(take.limit, waitMs / 1000);
      }
    }
  });
  // Now and then, old windows go (a cheap indexed delete).
  if (Math.random() < 0.01)
    await db.delete(usageCounters).where(lt(usageCounters.windowStart, new Date(now - KEEP_MS)));
}
