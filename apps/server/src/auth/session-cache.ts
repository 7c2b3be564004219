import type { FastifyRequest } from "fastify";
import type { SessionUser } from "./session-user.ts";

/**
 * A short-lived in-process memory of session cookies Better Auth has already validated, for
 * the hot polling routes (`POST /api/queue/status` every 3 s per open tab). A hit skips
 * Better Auth's whole `getSession` (cookie HMAC check, session + user read, output shaping):
 * under load that was most of a status request's cost.
 *
 * Revocation: a session deleted through Better Auth in this process (sign-out, revoke,
 * password change, account deletion, anonymous → account linking) is forgotten at once
 * through its database hooks (see auth.ts). A session removed any other way — by another
 * web process of the scale-out shape, or straight in the database — keeps working here for
 * at most `ttlMs` (SESSION_CACHE_TTL_MS), never past the session's own expiry.
 */
export class SessionCache {
  readonly #entries = new Map<string, Entry>();
  /** Bumped by every forget: a validation that began before it is not stored. */
  #epoch = 0;

  constructor(
    readonly ttlMs: number,
    readonly maxEntries = 10_000,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The counter a caller reads before it validates, and hands back to `remember`. */
  get epoch(): number {
    return this.#epoch;
  }

  /** The user of a cookie value validated lately, or null (unknown or expired). */
  lookup(cookie: string, now = Date.now()): SessionUser | null {
    const entry = this.#entries.get(cookie);
    if (!entry) return null;
    if (entry.until <= now) {
      this.#entries.delete(cookie);
      return null;
    }
    return entry.user;
  }

  /**
   * Keeps a cookie value Better Auth just validated, until `ttlMs` pass or the session
   * expires. Nothing is kept when a session was forgotten since `epoch` was read (the
   * validation may have read a session that a concurrent sign-out then removed).
   */
  remember(
    cookie: string,
    found: { user: SessionUser; token: string; expiresAt: Date },
    epoch: number,
    now = Date.now(),
  ): void {
    if (!this.enabled || epoch !== this.#epoch) return;
    const until = Math.min(now + this.ttlMs, found.expiresAt.getTime());
    if (until <= now) return;
    if (this.#entries.size >= this.maxEntries) this.#evict(now);
    this.#entries.set(cookie, { user: found.user, token: found.token, until });
  }

  /** Forgets a session (signed out, revoked, deleted). */
  forgetToken(token: string): void {
    this.#epoch++;
    for (const [key, entry] of this.#entries) if (entry.token === token) this.#entries.delete(key);
  }

  /** Forgets every session of a user (deleted, or changed in a way the cache holds). */
  forgetUser(userId: string): void {
    this.#epoch++;
    for (const [key, entry] of this.#entries)
      if (entry.user.id === userId) this.#entries.delete(key);
  }

  clear(): void {
    this.#epoch++;
    this.#entries.clear();
  }

  /** Drops expired entries, then the oldest ones, to make room. */
  #evict(now: number): void {
    for (const [key, entry] of this.#entries) if (entry.until <= now) this.#entries.delete(key);
    const excess = this.#entries.size - Math.floor(this.maxEntries * 0.9);
    if (excess <= 0) return;
    let dropped = 0;
    for (const key of this.#entries.keys()) {
      if (dropped++ >= excess) break;
      this.#entries.delete(key);
    }
  }
}

interface Entry {
  user: SessionUser;
  /** Better Auth's session token (the cookie value is it plus a signature). */
  token: string;
  until: number;
}

/**
 * The user of the request's session cookie when the cache knows it, else null (always for a
 * request that sends `Authorization`: see requireCachedSession).
 */
export function cachedSessionUser(
  cache: SessionCache,
  request: FastifyRequest,
  cookieName: string,
): SessionUser | null {
  // A request with an Authorization header is its token's: the slow path reads that.
  if (!cache.enabled || request.headers.authorization !== undefined) return null;
  const cookie = sessionCookieValue(request, cookieName);
  return cookie ? cache.lookup(cookie) : null;
}

/**
 * The value of cookie `name` in a request, or null when absent or given more than once (an
 * ambiguous header goes the slow way, where Better Auth decides which one counts).
 */
export function sessionCookieValue(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  const prefix = `${name}=`;
  let found: string | null = null;
  let at = 0;
  while (at < header.length) {
    const end = header.indexOf(";", at);
    const part = header.slice(at, end === -1 ? header.length : end).trim();
    at = end === -1 ? header.length : end + 1;
    if (!part.startsWith(prefix)) continue;
    if (found !== null) return null;
    found = part.slice(prefix.length);
  }
  return found || null;
}
