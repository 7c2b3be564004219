import { WORKFLOW_ERRORS } from "@atelier/core";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { AppDb } from "../db/client.ts";
import { apiTokens, user } from "../db/schema.ts";
import { UnauthenticatedError } from "../domain/errors.ts";
import { hashApiToken } from "./api-token-secret.ts";
import type { SessionUser } from "./session-user.ts";

/** `last_used_at` is rewritten at most this often per token, not on every request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Who a personal API token belongs to. Each Bearer request reads its token's row by the
 * hash's unique index (one indexed join, like Better Auth's own session read); nothing is
 * cached, so a revoked token is refused at once by every process.
 */
export class ApiTokenUsers {
  constructor(private readonly db: AppDb) {}

  /** The token's user (marked `viaToken`), or null when no such token exists (revoked). */
  async userOf(token: string, now = new Date()): Promise<SessionUser | null> {
    if (token === "") return null;
    const [row] = await this.db
      .select({
        tokenId: apiTokens.id,
        lastUsedAt: apiTokens.lastUsedAt,
        id: user.id,
        email: user.email,
        name: user.name,
        isAnonymous: user.isAnonymous,
        disabledAt: user.disabledAt,
      })
      .from(apiTokens)
      .innerJoin(user, eq(user.id, apiTokens.userId))
      .where(eq(apiTokens.tokenHash, hashApiToken(token)))
      .limit(1);
    // A disabled account's tokens are refused like revoked ones.
    if (!row || row.disabledAt) return null;
    const stale = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
    if (!row.lastUsedAt || row.lastUsedAt < stale) {
      // Conditional, so concurrent requests (or processes) write it once.
      await this.db
        .update(apiTokens)
        .set({ lastUsedAt: now })
        .where(
          and(
            eq(apiTokens.id, row.tokenId),
            or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, stale)),
          ),
        );
    }
    return {
      id: row.id,
      email: row.email,
      name: row.name,
      isAnonymous: Boolean(row.isAnonymous),
      viaToken: true,
    };
  }

  /** The token's user, or a 401 "Not authenticated" for an unknown or revoked token. */
  async require(token: string): Promise<SessionUser> {
    const found = await this.userOf(token);
    if (!found) throw new UnauthenticatedError(WORKFLOW_ERRORS.notAuthenticated);
    return found;
  }
}
