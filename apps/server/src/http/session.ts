import { WORKFLOW_ERRORS } from "@atelier/core";
import { fromNodeHeaders } from "better-auth/node";
import type { FastifyRequest } from "fastify";
import { type Auth, apiTokenUsersOf } from "../auth/auth.ts";
import { bearerTokenOf } from "../auth/bearer.ts";
import type { SessionUser } from "../auth/session-user.ts";
import { HttpError } from "./errors.ts";

export type { SessionUser } from "../auth/session-user.ts";

/**
 * The signed-in user of a request, or null. A request with `Authorization: Bearer` is its
 * token's user or a 401 (an unknown or revoked token is refused, never taken as signed out);
 * its cookies were dropped on arrival (same-origin.ts), so only the token counts.
 */
export async function currentUser(
  auth: Auth,
  request: FastifyRequest,
): Promise<SessionUser | null> {
  const token = bearerTokenOf(request.headers);
  if (token !== undefined) return apiTokenUsersOf(auth).require(token);
  const found = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
  if (!found) return null;
  const { id, email, name } = found.user;
  const isAnonymous = Boolean((found.user as { isAnonymous?: boolean | null }).isAnonymous);
  return { id, email, name, isAnonymous };
}

/** The signed-in user (an account, not an anonymous browser), or a 401 "Not authenticated". */
export async function requireUser(auth: Auth, request: FastifyRequest): Promise<SessionUser> {
  const found = await currentUser(auth, request);
  if (!found || found.isAnonymous) throw new HttpError(401, WORKFLOW_ERRORS.notAuthenticated);
  return found;
}

/** Any session, anonymous included: enough to run generations and follow them. */
export async function requireSession(auth: Auth, request: FastifyRequest): Promise<SessionUser> {
  const found = await currentUser(auth, request);
  if (!found) throw new HttpError(401, WORKFLOW_ERRORS.notAuthenticated);
  return found;
}
