import { randomBytes, randomUUID } from "node:crypto";
import { RESET_PASSWORD_PATH } from "@atelier/core";
import { and, desc, eq, ilike, isNull, or } from "drizzle-orm";
import { RESET_LINK_TTL_S } from "../auth/auth.ts";
import type { AppDb } from "../db/client.ts";
import { user, verification } from "../db/schema.ts";
import { NotFoundError } from "../domain/errors.ts";

/** Accounts, not the anonymous sessions of signed-out browsers. */
const isAccount = or(isNull(user.isAnonymous), eq(user.isAnonymous, false));
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** Accounts for the admin page, newest first: addresses containing `q`, no anonymous ones. */
export async function listAccounts(db: AppDb, q: string | undefined) {
  const rows = await db
    .select({
      id: user.id,
      email: user.email,
      name: user.name,
      emailVerified: user.emailVerified,
      isAdmin: user.isAdmin,
      createdAt: user.createdAt,
    })
    .from(user)
    .where(q ? and(isAccount, ilike(user.email, `%${escapeLike(q)}%`)) : isAccount)
    .orderBy(desc(user.createdAt))
    .limit(100);
  return rows.map(({ createdAt, ...row }) => ({ ...row, createdAt: createdAt.toISOString() }));
}

/**
 * A one-time password reset link for an account, issued by an admin (for servers without
 * mail, or a user who lost access to theirs). It is Better Auth's own reset token (the
 * `reset-password:` verification row its POST /api/auth/reset-password consumes), so the
 * same page and rules serve mailed and issued links.
 */
export async function issueResetLink(db: AppDb, userId: string, publicUrl: string) {
  const [account] = await db
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.id, userId), isAccount));
  if (!account) throw new NotFoundError("User not found");
  const token = randomBytes(18).toString("base64url");
  const expiresAt = new Date(Date.now() + RESET_LINK_TTL_S * 1000);
  await db.insert(verification).values({
    id: randomUUID(),
    identifier: `reset-password:${token}`,
    value: account.id,
    expiresAt,
  });
  return {
    url: `${publicUrl}${RESET_PASSWORD_PATH}?token=${token}`,
    expiresAt: expiresAt.toISOString(),
  };
}
