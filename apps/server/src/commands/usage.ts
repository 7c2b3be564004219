import type { AdminSpend, UsageRow } from "@atelier/core";
import { and, desc, eq, gte, sql } from "drizzle-orm";
import type { AppDb } from "../db/client.ts";
import { jobs, user } from "../db/schema.ts";
import type { SpendBudgets } from "../env-limits.ts";
import { budgetPeriods, budgetsOf, spentSince } from "./quotas/spend-budget.ts";

/** The first moment counted by a view of the last `days` days (UTC days, today included). */
const startOf = (days: number, now: Date) =>
  new Date(budgetPeriods(now).day.getTime() - (days - 1) * 86_400_000);

const usd = sql<string | number>`coalesce(sum(${jobs.costUsd}), 0)`;
/** Sums of doubles to a hundredth of a cent (0.6 + 1.2 is 1.7999999999999998). */
const dollarsOf = (value: string | number | null | undefined) =>
  Math.round(Number(value ?? 0) * 10_000) / 10_000;
const unpriced = sql<string | number>`count(*) filter (where ${jobs.costUsd} is null)`;
const jobCount = sql<string | number>`count(*)`;
const completedSince = (since: Date) =>
  and(eq(jobs.status, "COMPLETED"), gte(jobs.completedAt, since));

/** A user's spend: completed jobs by UTC day and model, newest day first. */
export async function usageOf(
  db: AppDb,
  userId: string,
  days: number,
  now = new Date(),
): Promise<UsageRow[]> {
  const day = sql<string>`to_char(${jobs.completedAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .select({ day, model: jobs.model, jobs: jobCount, usd, unpriced })
    .from(jobs)
    .where(and(eq(jobs.userId, userId), completedSince(startOf(days, now))))
    .groupBy(day, jobs.model)
    .orderBy(desc(day), jobs.model);
  return rows.map((row) => ({
    day: row.day,
    model: row.model,
    jobs: Number(row.jobs),
    usd: dollarsOf(row.usd),
    unpriced: Number(row.unpriced),
  }));
}

/** A user's budgets with what is spent (and held by jobs on their way) against each. */
export async function budgetStatusOf(
  db: AppDb,
  budgets: SpendBudgets,
  userId: string,
  now = new Date(),
) {
  const own = await budgetsOf(db, budgets, userId);
  const periods = budgetPeriods(now);
  const status = async (limit: number | null, since: Date) =>
    limit === null
      ? null
      : { limitUsd: limit, spentUsd: dollarsOf(await spentSince(db, since, userId)) };
  return {
    daily: await status(own.daily, periods.day),
    monthly: await status(own.monthly, periods.month),
  };
}

/** What the instance spent over `days`: by provider and by user, the biggest first. */
export async function instanceSpend(
  db: AppDb,
  days: number,
  now = new Date(),
): Promise<Omit<AdminSpend, "days">> {
  const since = completedSince(startOf(days, now));
  const byProvider = await db
    .select({ provider: jobs.provider, jobs: jobCount, usd, unpriced })
    .from(jobs)
    .where(since)
    .groupBy(jobs.provider)
    .orderBy(desc(usd), jobs.provider);
  const byUser = await db
    .select({
      userId: jobs.userId,
      email: user.email,
      isAnonymous: user.isAnonymous,
      jobs: jobCount,
      usd,
      unpriced,
    })
    .from(jobs)
    .innerJoin(user, eq(user.id, jobs.userId))
    .where(since)
    .groupBy(jobs.userId, user.email, user.isAnonymous)
    .orderBy(desc(usd), jobs.userId)
    .limit(100);
  const numbers = <
    T extends { jobs: string | number; usd: string | number; unpriced: string | number },
  >(
    row: T,
  ) => ({
    ...row,
    jobs: Number(row.jobs),
    usd: dollarsOf(row.usd),
    unpriced: Number(row.unpriced),
  });
  return {
    byProvider: byProvider.map(numbers),
    // An anonymous session's address is made up: it has none to show.
    byUser: byUser.map(({ isAnonymous, ...row }) => ({
      ...numbers(row),
      email: isAnonymous ? null : row.email,
    })),
  };
}
