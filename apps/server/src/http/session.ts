import { WORKFLOW_ERRORS } from "@atelier/core";
import { fromNodeHeaders } from "better-auth/node";
import type { FastifyRequest } from "fastify";
import type { Auth } from "../auth/auth.ts";
import { HttpError } from "./errors.ts";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

/** The signed-in user of a request, or null. */
export async function currentUser(
  auth: Auth,
  request: FastifyRequest,
): Promise<SessionUser | null> {
  const found = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
  if (!found) return null;
  return { id: found.user.id, email: found.user.email, name: found.user.name };
}

/** The signed-in user, or a 401 "Not authenticated". */
export async function requireUser(auth: Auth, request: FastifyRequest): Promise<SessionUser> {
  const found = await currentUser(auth, request);
  if (!found) throw new HttpError(401, WORKFLOW_ERRORS.notAuthenticated);
  return found;
}
