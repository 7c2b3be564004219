import { WORKFLOW_ERRORS } from "@atelier/core";
import { fromNodeHeaders } from "better-auth/node";
import type { FastifyRequest } from "fastify";
import { UnauthenticatedError } from "../domain/errors.ts";
import { type Auth, apiTokenUsersOf, sessionCacheOf } from "./auth.ts";
import { bearerTokenOf } from "./bearer.ts";
import { sessionCookieValue } from "./session-cache.ts";
import type { SessionUser } from "./session-user.ts";

const cookieNames = new WeakMap<Auth, Promise<string>>();

/** The session cookie's name as this auth instance writes it (`__Secure-` on https). */
function sessionCookieName(auth: Auth): Promise<string> {
  let name = cookieNames.get(auth);
  if (!name) {
    name = auth.$context.then((context) => context.authCookies.sessionToken.name);
    cookieNames.set(auth, name);
  }
  return name;
}

/**
 * `requireSession` for hot routes (job status polling): any session, anonymous included, or
 * a 401 "Not authenticated" — answered from the short-lived session cache when this cookie
 * was validated lately, else by Better Auth (and then remembered). See session-cache.ts for
 * how sign-out and revocation reach the cache. A Bearer request is its token's user (never
 * cached, so a revoked token stops at once) or a 401.
 */
export async function requireCachedSession(
  auth: Auth,
  request: FastifyRequest,
): Promise<SessionUser> {
  const bearer = bearerTokenOf(request.headers);
  if (bearer !== undefined) return apiTokenUsersOf(auth).require(bearer);
  const cache = sessionCacheOf(auth);
  const cookie = cache.enabled ? sessionCookieValue(request, await sessionCookieName(auth)) : null;
  if (cookie) {
    const known = cache.lookup(cookie);
    if (known) return known;
  }
  const epoch = cache.epoch;
  const found = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
  if (!found) throw new UnauthenticatedError(WORKFLOW_ERRORS.notAuthenticated);
  const { id, email, name } = found.user;
  const isAnonymous = Boolean((found.user as { isAnonymous?: boolean | null }).isAnonymous);
  const user: SessionUser = { id, email, name, isAnonymous };
  // The signed cookie is "<token>.<signature>": keep it only when it is the one validated.
  const { token, expiresAt } = found.session;
  if (cookie && safeDecode(cookie)?.startsWith(`${token}.`))
    cache.remember(cookie, { user, token, expiresAt: new Date(expiresAt) }, epoch);
  return user;
}

/**
 * `requireUser` for the requests of a batch save (dozens a second from one tab): an account,
 * not an anonymous browser, from the session cache when it knows the cookie. Revocation
 * reaches it as it reaches the polling routes (at once in this process, see session-cache.ts).
 */
export async function requireCachedUser(auth: Auth, request: FastifyRequest): Promise<SessionUser> {
  const user = await requireCachedSession(auth, request);
  if (user.isAnonymous) throw new UnauthenticatedError(WORKFLOW_ERRORS.notAuthenticated);
  return user;
}

function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
