import { existsSync } from "node:fs";
import multipart from "@fastify/multipart";
import rateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { AppContext } from "./context.ts";

/** Vite's output names: `assets/<name>-<hash>.<ext>`. */
const HASHED_ASSET = /[\\/]assets[\\/][^\\/]+-[\w-]{8}\.\w+(\.(br|gz))?$/;

import { registerCompression } from "./http/compression.ts";
import { registerErrorHandler } from "./http/errors.ts";
import { closeEventStreams } from "./http/event-stream.ts";
import { inputGuard } from "./http/input-guard.ts";
import { registerMetrics } from "./http/metrics.ts";
import { registerSameOriginGuard } from "./http/same-origin.ts";
import { registerSecurityHeaders } from "./http/security-headers.ts";
import { loggerAt, rootLogger } from "./log.ts";
import { adminRoutes } from "./routes/admin.ts";
import { appRoutes } from "./routes/apps.ts";
import { authRoutes } from "./routes/auth.ts";
import { callbackRoutes } from "./routes/callbacks.ts";
import { docsRoutes } from "./routes/docs.ts";
import { folderRoutes } from "./routes/folders.ts";
import { generateRoutes } from "./routes/generate.ts";
import { healthRoutes } from "./routes/health.ts";
import { mediaRoutes } from "./routes/media.ts";
import { providerRoutes } from "./routes/providers.ts";
import { queueRoutes } from "./routes/queue.ts";
import { runRoutes } from "./routes/runs.ts";
import { shareRoutes } from "./routes/shares.ts";
import { tokenRoutes } from "./routes/tokens.ts";
import { usageRoutes } from "./routes/usage.ts";
import { versionRoutes } from "./routes/versions.ts";
import { workflowRoutes } from "./routes/workflows.ts";

export interface AppOptions {
  /** Directory of the built web app to serve at "/", when present. */
  webRoot?: string;
  /**
   * Request logging, through the process's logger (log.ts) at its level unless one is given;
   * `false`: none.
   */
  logger?: boolean | { level: string };
  /** Told of every route as it registers (the isolation test's inventory). */
  onRoute?: (route: { method: string; url: string }) => void;
}

/** The app's logger: the root one (LOG_LEVEL), a child at another level, or a silent one. */
function appLogger(option: AppOptions["logger"]): FastifyBaseLogger {
  if (option === false) return loggerAt("silent");
  return typeof option === "object" ? loggerAt(option.level) : rootLogger;
}

/** The HTTP app: API routes on the shared context, plus the built web app when given. */
export async function buildApp(
  ctx: AppContext,
  options: AppOptions = {},
): Promise<FastifyInstance> {
  // Client addresses (rate limits) come from X-Forwarded-For only behind configured proxies.
  const hops = ctx.config.trustProxy;
  const app = Fastify({
    loggerInstance: appLogger(options.logger),
    // Closing must not wait on clients: event streams are ended first (preClose), and any
    // connection still open then is cut rather than holding shutdown forever.
    forceCloseConnections: true,
    trustProxy: (_address: string, hop: number) => hop < hops,
  });
  const { onRoute } = options;
  if (onRoute) {
    app.addHook("onRoute", (route) => {
      for (const method of [route.method].flat())
        if (method !== "HEAD") onRoute({ method, url: route.url });
    });
  }
  registerErrorHandler(app);
  // First, so its timing hook sees every route (the 404s too).
  registerMetrics(app, ctx);
  // Before any route: headers on every answer (403s included), then the origin check on
  // every state change, before its body is read (docs/security.md).
  registerSecurityHeaders(app, ctx.config.publicUrl);
  registerSameOriginGuard(app, ctx.config);
  // Event streams never end by themselves: end them so closing the app does not hang.
  app.addHook("preClose", async () => closeEventStreams(app));
  await registerCompression(app);
  await app.register(rateLimit, { global: false });
  await app.register(inputGuard);

  await app.register(async (api) => {
    await healthRoutes(api, ctx);
    await authRoutes(api, ctx);
    await folderRoutes(api, ctx);
    await workflowRoutes(api, ctx);
    await versionRoutes(api, ctx);
    // Multipart adds an onRequest and an onResponse hook to every route of its scope: only
    // the upload routes get them, not the hot JSON ones (job status polling).
    await api.register(async (uploads) => {
      await uploads.register(multipart);
      await mediaRoutes(uploads, ctx);
    });
    await generateRoutes(api, ctx);
    await queueRoutes(api, ctx);
    await runRoutes(api, ctx);
    await callbackRoutes(api, ctx);
    await tokenRoutes(api, ctx);
    await shareRoutes(api, ctx);
    await appRoutes(api, ctx);
    await adminRoutes(api, ctx);
    await usageRoutes(api, ctx);
    await providerRoutes(api, ctx);
    await docsRoutes(api, ctx);
  });

  const serveShell = Boolean(options.webRoot && existsSync(options.webRoot));
  if (serveShell) {
    await app.register(fastifyStatic, {
      root: options.webRoot as string,
      index: "index.html",
      wildcard: false,
      // The build writes .br and .gz beside each text file: sent by Accept-Encoding.
      preCompressed: true,
      // Hashed build files never change: cached for a year, never revalidated. The shell
      // (and anything unhashed) is revalidated on every visit, so a deploy shows at once.
      cacheControl: false,
      setHeaders: (response, path) => {
        response.setHeader(
          "cache-control",
          HASHED_ASSET.test(path) ? "public, max-age=31536000, immutable" : "no-cache",
        );
      },
    });
  }
  // Client-side routes (apps/web/src/app/routes.ts: /, /w/:id, /local/:id, /auth/callback,
  // /reset-password, and the share and app pages /s/:token, /a/:slug) get the app shell;
  // unknown API paths are 404 JSON.
  app.setNotFoundHandler((request, reply) => {
    if (serveShell && request.method === "GET" && !request.url.startsWith("/api/")) {
      return reply.sendFile("index.html");
    }
    return reply.code(404).send({ error: "Not found" });
  });
  return app;
}
