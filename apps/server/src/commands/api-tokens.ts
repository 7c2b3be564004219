import { randomUUID } from "node:crypto";
import { API_TOKEN_ERRORS, API_TOKEN_LIMITS, validateApiTokenName } from "@atelier/core";
import { and, count, desc, eq } from "drizzle-orm";
import { newApiToken } from "../auth/api-token-secret.ts";
import type { AppDb } from "../db/client.ts";
import { apiTokens, user } from "../db/schema.ts";
import { InvalidInputError, NotFoundError } from "../domain/errors.ts";

/** A token as its owner may see it: never its text nor its hash. */
export interface ApiTokenRecord {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const listed = {
  id: apiTokens.id,
  name: apiTokens.name,
  prefix: apiTokens.prefix,
  createdAt: apiTokens.createdAt,
  lastUsedAt: apiTokens.lastUsedAt,
};

/**
 * Creates a token for the user: `token` is its text, returned this once and stored only as
 * its hash. At most API_TOKEN_LIMITS.perUser per user (the user's row is locked while
 * counting, so two creations at once cannot both take the last place).
 */
export async function createApiToken(
  db: AppDb,
  userId: string,
  name: string,
): Promise<{ id: string; token: string }> {
  const message = validateApiTokenName(name);
  if (message) throw new InvalidInputError(message);
  const secret = newApiToken();
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await tx.select({ id: user.id }).from(user).where(eq(user.id, userId)).for("update");
    const [held] = await tx
      .select({ n: count() })
      .from(apiTokens)
      .where(eq(apiTokens.userId, userId));
    if (Number(held?.n ?? 0) >= API_TOKEN_LIMITS.perUser)
      throw new InvalidInputError(API_TOKEN_ERRORS.tooMany);
    await tx.insert(apiTokens).values({
      id,
      userId,
      name: name.trim(),
      tokenHash: secret.hash,
      prefix: secret.prefix,
    });
  });
  return { id, token: secret.token };
}

/** The user's tokens, newest first. */
export function listApiTokens(db: AppDb, userId: string): Promise<ApiTokenRecord[]> {
  return db
    .select(listed)
    .from(apiTokens)
    .where(eq(apiTokens.userId, userId))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

/** Revokes (deletes) one of the user's tokens; another user's id is "Token not found". */
export async function revokeApiToken(db: AppDb, userId: string, id: string): Promise<void> {
  const removed = await db
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId)))
    .returning({ id: apiTokens.id });
  if (removed.length === 0) throw new NotFoundError(API_TOKEN_ERRORS.notFound);
}
