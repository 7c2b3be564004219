import { SHARE_TOKEN_HEADER, zShareToken } from "@atelier/core";
import type { FastifyRequest } from "fastify";

/**
 * The share link a request comes through (`x-share-token`, or `?share=` where a header cannot
 * be set: an EventSource), or undefined. A malformed token finds no link: 404, as a revoked one.
 */
export function shareTokenOf(request: FastifyRequest): string | undefined {
  const value =
    request.headers[SHARE_TOKEN_HEADER] ?? (request.query as { share?: unknown })?.share;
  const token = Array.isArray(value) ? value[0] : value;
  if (typeof token !== "string" && token !== undefined) return "invalid";
  if (token === undefined || token === "") return undefined;
  return zShareToken.safeParse(token).success ? token : "invalid";
}
