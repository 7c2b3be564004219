import { randomBytes, randomUUID } from "node:crypto";
import { ACCOUNT_MESSAGES, RESET_PASSWORD_PATH } from "@atelier/core";
import { and, eq } from "drizzle-orm";
import { RESET_LINK_TTL_S } from "../auth/auth.ts";
import type { AppDb } from "../db/client.ts";
import { user, verification } from "../db/schema.ts";
import { NotFoundError } from "../domain/errors.ts";
import { isAccount } from "./account-admin.ts";

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
  if (!account) throw new NotFoundError(ACCOUNT_MESSAGES.notFound);
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
