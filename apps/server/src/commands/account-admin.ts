import { ACCOUNT_MESSAGES } from "@atelier/core";
import { and, desc, eq, ilike, isNull, or } from "drizzle-orm";
import type { AppDb } from "../db/client.ts";
import { session, user } from "../db/schema.ts";
import { InvalidInputError, NotFoundError } from "../domain/errors.ts";

/** Accounts, not the anonymous sessions of signed-out browsers. */
export const isAccount = or(isNull(user.isAnonymous), eq(user.isAnonymous, false));

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

const columns = {
  id: user.id,
  email: user.email,
  name: user.name,
  emailVerified: user.emailVerified,
  isAdmin: user.isAdmin,
  disabledAt: user.disabledAt,
  createdAt: user.createdAt,
};

interface Row {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  isAdmin: boolean;
  disabledAt: Date | null;
  createdAt: Date;
}

const present = ({ createdAt, disabledAt, ...row }: Row) => ({
  ...row,
  disabled: disabledAt !== null,
  createdAt: createdAt.toISOString(),
});

/** Accounts for the admin page, newest first: addresses containing `q`, no anonymous ones. */
export async function listAccounts(db: AppDb, q: string | undefined) {
  const rows = await db
    .select(columns)
    .from(user)
    .where(q ? and(isAccount, ilike(user.email, `%${escapeLike(q)}%`)) : isAccount)
    .orderBy(desc(user.createdAt))
    .limit(100);
  return rows.map(present);
}

/**
 * Disables an account (it cannot sign in; its sessions go, and its API tokens are refused)
 * or enables it again. An admin cannot disable themselves (nobody would be left to undo it).
 */
export async function setAccountDisabled(
  db: AppDb,
  adminId: string,
  userId: string,
  disabled: boolean,
) {
  if (disabled && userId === adminId) throw new InvalidInputError(ACCOUNT_MESSAGES.notYourself);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(user)
      .set({ disabledAt: disabled ? new Date() : null })
      .where(and(eq(user.id, userId), isAccount))
      .returning(columns);
    if (!row) throw new NotFoundError(ACCOUNT_MESSAGES.notFound);
    if (disabled) await tx.delete(session).where(eq(session.userId, userId));
    return present(row);
  });
}
