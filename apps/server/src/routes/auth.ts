import { fromNodeHeaders } from "better-auth/node";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { configuredProviders, providerDisplayName } from "../auth/auth.ts";
import { inviteTokenIn } from "../auth/signup-policy.ts";
import type { AppContext } from "../context.ts";
import { ForbiddenError } from "../domain/errors.ts";
import { HttpError } from "../http/errors.ts";
import { jsonProblem } from "../http/input-guard.ts";
import { tooManyRequests } from "../http/limits.ts";
import { requireUser } from "../http/session.ts";
import { assertMaySignUp, isAdmin } from "../policy/access.ts";

/** Without SMTP_URL, what asks the server to send a mail is refused in these words. */
export const NO_MAIL = "This server does not send mail: ask an admin for a password reset link";
const MAILING_PATHS = new Set([
  "/api/auth/request-password-reset",
  "/api/auth/send-verification-email",
]);

/** SPEC §8's refusal for a provider that is not set up, naming the provider. */
export const providerNotConfigured = (name: string) =>
  `${name} sign-in is not configured. Please use email/password sign-in.`;

function toFetchRequest(request: FastifyRequest, origin: string): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(key, item);
  }
  // Browsers send Origin (and Sec-Fetch-Site) on POST; a request with neither, nor a
  // Referer, comes from a non-browser client, which cross-site forgery cannot use.
  if (!headers.has("origin") && !headers.has("referer") && !headers.has("sec-fetch-site")) {
    headers.set("origin", origin);
  }
  const body = request.body as Buffer | undefined;
  const init: RequestInit = { method: request.method, headers };
  if (body && body.length > 0 && request.method !== "GET" && request.method !== "HEAD")
    init.body = new Uint8Array(body);
  return new Request(new URL(request.url, origin), init);
}

async function sendFetchResponse(reply: FastifyReply, response: Response) {
  reply.code(response.status);
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie" && key !== "content-length") reply.header(key, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) reply.header("set-cookie", cookies);
  return reply.send(Buffer.from(await response.arrayBuffer()));
}

/**
 * Better Auth under /api/auth/* (sign-up, sign-in, sign-out, session, OAuth callbacks),
 * forwarded as Fetch requests with their raw bodies, plus our admin-status route.
 */
export async function authRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get("/api/auth/admin-status", async (request) => {
    const signedIn = await requireUser(ctx.auth, request);
    // Read on every call, so a demotion takes effect at once.
    return { isAdmin: await isAdmin(ctx.database.db, signedIn) };
  });

  // The sign-in choices the browser may offer (public: no account data), and whether a
  // forgotten password can be reset by mail here.
  app.get("/api/auth/providers", async () => ({
    providers: [...configuredProviders(ctx.config)].map(([id, name]) => ({ id, name })),
    passwordReset: ctx.config.mail !== null,
  }));

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      "*",
      { parseAs: "buffer", bodyLimit: 1024 * 1024 },
      (_request, body, done) => {
        done(null, body);
      },
    );

    const providers = configuredProviders(ctx.config);
    const forward = async (request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split("?")[0] ?? "";
      // Only canonical paths: "/api/auth/./sign-in" would dodge the limits and checks below.
      if (new URL(path, ctx.config.publicUrl).pathname !== path || path.includes("%")) {
        return reply.code(404).send({ error: "Not found" });
      }
      const problem = bodyProblem(request.body as Buffer | undefined);
      if (problem) throw new HttpError(400, problem);
      // Better Auth answers a refused sign-up like an accepted one (it never says who has an
      // account): the sign-up rules answer first, in words (the create hook still enforces).
      if (request.method === "POST" && path === "/api/auth/sign-up/email") {
        const email = readEmail(request.body as Buffer | undefined);
        const invite = inviteTokenIn(fromNodeHeaders(request.headers));
        try {
          await assertMaySignUp(ctx.database.db, ctx.config, email, invite);
        } catch (error) {
          const message = (error as Error).message;
          // Better Auth's clients read `message`; ours read `error`.
          if (error instanceof ForbiddenError)
            return reply.code(403).send({ error: message, message });
          throw error;
        }
      }
      if (!ctx.config.mail && MAILING_PATHS.has(path)) {
        return reply.code(400).send({ error: NO_MAIL, message: NO_MAIL });
      }
      if (request.method === "POST" && path === "/api/auth/sign-in/social") {
        const provider = readProvider(request.body as Buffer | undefined);
        if (provider !== null && !providers.has(provider)) {
          const message = providerNotConfigured(providerDisplayName(provider));
          return reply.code(400).send({ error: message, message });
        }
      }
      return sendFetchResponse(
        reply,
        await ctx.auth.handler(toFetchRequest(request, ctx.config.publicUrl)),
      );
    };

    const max = ctx.config.limits.signInPerMinute;
    const limited = {
      config: {
        rateLimit: {
          max,
          timeWindow: 60_000,
          errorResponseBuilder: (_request: FastifyRequest, context: { ttl: number }) =>
            tooManyRequests(
              `Too many sign-in attempts from this address: at most ${max} a minute`,
              context.ttl / 1000,
            ),
        },
      },
    };
    scope.post("/api/auth/sign-in/*", limited, forward);
    scope.post("/api/auth/sign-up/*", limited, forward);
    // Each of these sends a mail: the same limit keeps the server from mailing anyone in bulk.
    scope.post("/api/auth/request-password-reset", limited, forward);
    scope.post("/api/auth/send-verification-email", limited, forward);
    scope.post("/api/auth/reset-password", limited, forward);
    scope.route({ method: ["GET", "POST"], url: "/api/auth/*", handler: forward });
  });
}

/**
 * What the app refuses in every JSON body (input-guard.ts), in one forwarded raw to Better
 * Auth: a NUL (else "Failed to create user" from the database), a lone surrogate, deep
 * nesting. Bodies are small here (1 MB), so they are parsed once more for it.
 */
function bodyProblem(body: Buffer | undefined): string | null {
  if (!body || body.length === 0) return null;
  try {
    return jsonProblem(JSON.parse(body.toString("utf8")));
  } catch {
    return null; // not JSON: Better Auth answers it
  }
}

/** The address a sign-up names ("" when none: Better Auth then refuses it itself). */
function readEmail(body: Buffer | undefined): string {
  if (!body) return "";
  try {
    const parsed = JSON.parse(body.toString("utf8")) as { email?: unknown };
    return typeof parsed.email === "string" ? parsed.email : "";
  } catch {
    return "";
  }
}

function readProvider(body: Buffer | undefined): string | null {
  if (!body) return null;
  try {
    const parsed = JSON.parse(body.toString("utf8")) as { provider?: unknown };
    return typeof parsed.provider === "string" ? parsed.provider : null;
  } catch {
    return null;
  }
}
