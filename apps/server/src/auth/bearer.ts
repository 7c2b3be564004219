import type { IncomingHttpHeaders } from "node:http";

const BEARER = /^bearer\s+/i;

/** Whether a request authenticates with `Authorization: Bearer …` (an API token). */
export function hasBearer(headers: IncomingHttpHeaders): boolean {
  const authorization = headers.authorization;
  return typeof authorization === "string" && /^bearer(\s|$)/i.test(authorization);
}

/**
 * The token of an `Authorization: Bearer <token>` header, or undefined when the request
 * sends none (it is then authenticated by its session cookie, if any). A Bearer header with
 * an empty token gives "" — an unknown token, refused like any other.
 */
export function bearerTokenOf(headers: IncomingHttpHeaders): string | undefined {
  if (!hasBearer(headers)) return undefined;
  return (headers.authorization as string).replace(BEARER, "").trim();
}
