import type { FastifyInstance, FastifyRequest } from "fastify";
import { hasBearer } from "../auth/bearer.ts";

/** Methods that never change anything here; every other method is a state change. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Server-to-server paths, authenticated by their own signature or unguessable token:
 * provider webhooks and callbacks carry no browser headers and no cookie.
 */
export const ORIGIN_EXEMPT_PREFIXES = ["/api/callbacks/"] as const;

export const CROSS_ORIGIN_ERRORS = {
  foreign:
    "Cross-origin request refused: changes are accepted only from this app's own pages (the Origin header names another site or origin).",
  missing: (origin: string) =>
    `Cross-origin request refused: a request that carries cookies and changes data must say where it comes from. Browsers send Origin themselves; a script must send "Origin: ${origin}".`,
} as const;

export type OriginVerdict = "allow" | "foreign" | "missing";

/** An origin as browsers serialise it ("https://host[:port]"), or null when unreadable. */
function normalise(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.origin === "null" ? null : url.origin;
  } catch {
    return null;
  }
}

/**
 * Whether a request may change state: the decision alone, without Fastify (tests call it).
 *
 * 1. GET, HEAD and OPTIONS are not checked (they change nothing; OAuth callbacks are GETs).
 * 2. Provider callbacks (`/api/callbacks/…`) are exempt: signed or token-addressed.
 * 3. `Authorization: Bearer …` is exempt: a token is not sent by a browser on its own, and
 *    the guard drops such a request's cookies (see `registerSameOriginGuard`), so it can
 *    only ever be authenticated by its token.
 * 4. An `Origin` header must name one of ours (PUBLIC_URL, plus TRUSTED_ORIGINS); `null`
 *    (sandboxed frames, some redirects) is foreign.
 * 5. Without Origin, `Sec-Fetch-Site` must be `same-origin` (`same-site` is another port or
 *    subdomain of this site: refused).
 * 6. With neither header, a request without cookies passes (nothing ambient to abuse: a
 *    script signing in, a health probe); one with cookies is refused.
 */
export function judgeOrigin(
  method: string,
  url: string,
  headers: FastifyRequest["headers"],
  trusted: ReadonlySet<string>,
): OriginVerdict | "exempt" {
  if (SAFE_METHODS.has(method)) return "allow";
  if (ORIGIN_EXEMPT_PREFIXES.some((prefix) => url.startsWith(prefix))) return "exempt";
  if (hasBearer(headers)) return "exempt";
  const origin = headers.origin;
  if (typeof origin === "string") {
    const named = normalise(origin);
    return named !== null && trusted.has(named) ? "allow" : "foreign";
  }
  const site = headers["sec-fetch-site"];
  if (typeof site === "string") return site === "same-origin" ? "allow" : "foreign";
  return headers.cookie ? "missing" : "allow";
}

/**
 * Refuses state-changing requests that do not come from this server's own origin, before
 * their body is read (uploads included): 403 `{ error, reason }`. SameSite=Lax cookies do
 * not separate the origins of one site (another port of the same host is same-site).
 */
export function registerSameOriginGuard(
  app: FastifyInstance,
  options: { publicUrl: string; trustedOrigins: readonly string[] },
): void {
  const trusted = new Set(
    [options.publicUrl, ...options.trustedOrigins]
      .map(normalise)
      .filter((origin): origin is string => origin !== null),
  );
  const publicOrigin = new URL(options.publicUrl).origin;
  app.addHook("onRequest", (request, reply, done) => {
    // A Bearer request (reads included) is authenticated by its token alone: a script that
    // also sends a browser's cookies must not act as that browser's session.
    if (hasBearer(request.headers)) delete request.headers.cookie;
    const verdict = judgeOrigin(request.method, request.url, request.headers, trusted);
    if (verdict === "allow") return done();
    if (verdict === "exempt") {
      // Exempt requests are never cookie-authenticated.
      delete request.headers.cookie;
      return done();
    }
    const error =
      verdict === "foreign"
        ? CROSS_ORIGIN_ERRORS.foreign
        : CROSS_ORIGIN_ERRORS.missing(publicOrigin);
    reply.code(403).send({ error, reason: verdict === "foreign" ? "cross-origin" : "no-origin" });
  });
}
