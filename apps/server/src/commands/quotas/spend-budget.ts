import { type BudgetName, COST_MESSAGES } from "@atelier/core";
import { and, eq, gte, inArray, or, type SQL, sql } from "drizzle-orm";
import type { AppDb } from "../../db/client.ts";
import { jobs, usageCounters, userQuotas } from "../../db/schema.ts";
import { RateLimitedError } from "../../domain/errors.ts";
import type { SpendBudgets } from "../../env-limits.ts";

/** Jobs whose cost is held against budgets until they end. */
const ACTIVE = ["IN_QUEUE", "IN_PROGRESS"] as const;

/** Budgets reset at UTC midnight and on the first of the month (UTC). */
export function budgetPeriods(now: Date) {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return {
    day,
    nextDay: new Date(day.getTime() + 86_400_000),
    month,
    nextMonth: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}

/**
 * Spent since `since`: completed jobs' cost, plus the cost held by jobs still queued or
 * running (a start is refused for what is already on its way). One user's, or everyone's.
 */
export async function spentSince(
  db: AppDb,
  since: Date,
  userId?: string,
  address?: string,
): Promise<number> {
  const mine: SQL | undefined = userId
    ? eq(jobs.userId, userId)
    : address
      ? eq(jobs.clientAddress, address)
      : undefined;
  const [row] = await db
    .select({ usd: sql<string | number | null>`coalesce(sum(${jobs.costUsd}), 0)` })
    .from(jobs)
    .where(
      and(
        mine,
        or(
          and(eq(jobs.status, "COMPLETED"), gte(jobs.completedAt, since)),
          inArray(jobs.status, [...ACTIVE]),
        ),
      ),
    );
  return Number(row?.usd ?? 0);
}

/** The budgets that apply to a user: an admin's own for them, else the instance's. */
export async function budgetsOf(db: AppDb, budgets: SpendBudgets, userId: string) {
  const [own] = await db
    .select({ daily: userQuotas.dailyBudgetUsd, monthly: userQuotas.monthlyBudgetUsd })
    .from(userQuotas)
    .where(eq(userQuotas.userId, userId));
  return {
    daily: own?.daily ?? budgets.userDailyUsd,
    monthly: own?.monthly ?? budgets.userMonthlyUsd,
  };
}

/** Whether any budget holds this user's starts (their own, their address's, the instance's). */
export async function budgetApplies(
  db: AppDb,
  budgets: SpendBudgets,
  userId: string,
  address: string | null,
): Promise<boolean> {
  if (budgets.instanceDailyUsd !== null || budgets.instanceMonthlyUsd !== null) return true;
  if (address !== null && budgets.anonymousDailyUsdPerAddress !== null) return true;
  const own = await budgetsOf(db, budgets, userId);
  return own.daily !== null || own.monthly !== null;
}

/**
 * Refuses (429 naming the budget, Retry-After until it resets) a start that would cost more
 * than a budget has left. Free and unpriced starts are never refused by a budget.
 */
export async function assertAffordable(
  db: AppDb,
  budgets: SpendBudgets,
  userId: string,
  costUsd: number,
  /** An anonymous session's address: all such sessions of it share a budget. */
  address: string | null = null,
  now = new Date(),
): Promise<void> {
  if (!(costUsd > 0)) return;
  const periods = budgetPeriods(now);
  const own = await budgetsOf(db, budgets, userId);
  const checks: {
    name: BudgetName;
    limit: number | null;
    since: Date;
    until: Date;
    user?: string;
    address?: string;
  }[] = [
    {
      name: "userDaily",
      limit: own.daily,
      since: periods.day,
      until: periods.nextDay,
      user: userId,
    },
    {
      name: "userMonthly",
      limit: own.monthly,
      since: periods.month,
      until: periods.nextMonth,
      user: userId,
    },
    ...(address
      ? [
          {
            name: "addressDaily" as const,
            limit: budgets.anonymousDailyUsdPerAddress,
            since: periods.day,
            until: periods.nextDay,
            address,
          },
        ]
      : []),
    {
      name: "instanceDaily",
      limit: budgets.instanceDailyUsd,
      since: periods.day,
      until: periods.nextDay,
    },
    {
      name: "instanceMonthly",
      limit: budgets.instanceMonthlyUsd,
      since: periods.month,
      until: periods.nextMonth,
    },
  ];
  for (const check of checks) {
    if (check.limit === null) continue;
    const spent = await spentSince(db, check.since, check.user, check.address);
    // A hundredth of a cent of slack: sums of doubles are not exact.
    if (spent + costUsd <= check.limit + 1e-4) continue;
    throw new RateLimitedError(
      COST_MESSAGES.overBudget(costUsd, check.name, check.limit - spent, check.limit),
      Math.ceil((check.until.getTime() - now.getTime()) / 1000),
    );
  }
}

/**
 * Writes a priced start (`write`) only if it fits the budgets, in one transaction that holds
 * the user's budget row (and the instance's, when it has budgets) so that two starts in two
 * processes cannot both take the last of a budget.
 */
export async function withinBudgets<T>(
  db: AppDb,
  budgets: SpendBudgets,
  userId: string,
  costUsd: number,
  address: string | null,
  write: (db: AppDb) => Promise<T>,
): Promise<T> {
  if (!(costUsd > 0)) return write(db);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as AppDb;
    const instance = budgets.instanceDailyUsd !== null || budgets.instanceMonthlyUsd !== null;
    const byAddress = address !== null && budgets.anonymousDailyUsdPerAddress !== null;
    const own = await budgetsOf(tx, budgets, userId);
    // No budget applies: nothing to hold.
    if (own.daily === null && own.monthly === null && !instance && !byAddress) return write(tx);
    // Always in this order (user, address, instance), so two holders cannot deadlock.
    const keys = [`budget:${userId}`];
    if (byAddress) keys.push(`budget:address:${address}`);
    if (instance) keys.push("budget:instance");
    for (const key of keys) {
      // The upsert locks the key's row until the transaction ends.
      await tx
        .insert(usageCounters)
        .values({ key, windowStart: new Date(), count: 0 })
        .onConflictDoUpdate({ target: usageCounters.key, set: { windowStart: new Date() } });
    }
    await assertAffordable(tx, budgets, userId, costUsd, address);
    return write(tx);
  });
}
