import { SHARE_TOKEN_HEADER, zShareToken } from "@atelier/core";
import type { FastifyRequest } from "fastify";

/**
 * The share link a request comes through (`x-share-token`), or undefined. A malformed token
 * is kept as given: the policy then finds no link and answers 404, as for a revoked one.
 */
export function shareTokenOf(request: FastifyRequest): string | undefined {
  const value = request.headers[SHARE_TOKEN_HEADER];
  const token = Array.isArray(value) ? value[0] : value;
  if (token === undefined || token === "") return undefined;
  return zShareToken.safeParse(token).success ? token : "invalid";
}
