import { ACCOUNT_MESSAGES, type UserLimits } from "@atelier/core";
import { and, eq } from "drizzle-orm";
import type { AppDb } from "../db/client.ts";
import { user, userQuotas } from "../db/schema.ts";
import { NotFoundError } from "../domain/errors.ts";
import { isAccount } from "./account-admin.ts";

const NONE: UserLimits = {
  generationsPerMinute: null,
  concurrentJobs: null,
  dailyBudgetUsd: null,
  monthlyBudgetUsd: null,
};

/** An account (not an anonymous session) or 404. */
async function assertAccount(db: AppDb, userId: string) {
  const [row] = await db
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.id, userId), isAccount));
  if (!row) throw new NotFoundError(ACCOUNT_MESSAGES.notFound);
}

/** A user's own limits set by an admin (null each: the instance's default). */
export async function limitsOf(db: AppDb, userId: string): Promise<UserLimits> {
  await assertAccount(db, userId);
  const [row] = await db.select().from(userQuotas).where(eq(userQuotas.userId, userId));
  if (!row) return NONE;
  return {
    generationsPerMinute: row.generationsPerMinute,
    concurrentJobs: row.concurrentJobs,
    dailyBudgetUsd: row.dailyBudgetUsd,
    monthlyBudgetUsd: row.monthlyBudgetUsd,
  };
}

/** Sets a user's own limits; all null removes them. */
export async function setLimits(db: AppDb, userId: string, limits: UserLimits) {
  await assertAccount(db, userId);
  if (Object.values(limits).every((value) => value === null)) {
    await db.delete(userQuotas).where(eq(userQuotas.userId, userId));
    return NONE;
  }
  await db
    .insert(userQuotas)
    .values({ userId, ...limits })
    .onConflictDoUpdate({ target: userQuotas.userId, set: { ...limits, updatedAt: new Date() } });
  return limits;
}
