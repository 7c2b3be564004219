import { eq, lt, sql } from "drizzle-orm";
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

/** Rows idle this long are swept (the longest window is a day). */
const KEEP_MS = 2 * 86_400_000;

/**
 * Takes one from every counter, all or none, in the database (so every process shares them).
 * A key's window begins with its first request and lasts `windowMs`; a counter at its
 * maximum refuses with 429 and the seconds until its window ends, and the request's other
 * counters are left as they were (the transaction rolls back). Each take is one upsert that
 * locks the key's row until the end of the transaction, so two processes cannot both take
 * the last one.
 */
export async function takeFromWindows(
  db: AppDb,
  takes: readonly WindowTake[],
  now = Date.now(),
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const take of takes) {
      const at = new Date(now);
      const lapsed = sql`${usageCounters.windowStart} <= ${new Date(now - take.windowMs)}`;
      const taken = await tx
        .insert(usageCounters)
        .values({ key: take.key, windowStart: at, count: 1 })
        .onConflictDoUpdate({
          target: usageCounters.key,
          set: {
            count: sql`case when ${lapsed} then 1 else ${usageCounters.count} + 1 end`,
            windowStart: sql`case when ${lapsed} then ${at} else ${usageCounters.windowStart} end`,
          },
          setWhere: sql`${lapsed} or ${usageCounters.count} < ${take.max}`,
        })
        .returning({ count: usageCounters.count });
      if (taken.length > 0) continue;
      const [row] = await tx
        .select({ windowStart: usageCounters.windowStart })
        .from(usageCounters)
        .where(eq(usageCounters.key, take.key));
      const ends = (row?.windowStart.getTime() ?? now) + take.windowMs;
      throw new RateLimitedError(take.limit, (ends - now) / 1000);
    }
  });
  // Now and then, long idle keys go (a cheap indexed delete).
  if (Math.random() < 0.01)
    await db.delete(usageCounters).where(lt(usageCounters.windowStart, new Date(now - KEEP_MS)));
}
