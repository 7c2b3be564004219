import { existsSync } from "node:fs";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance } from "fastify";

export interface AppOptions {
  /** Directory of the built web app to serve at "/", when present. */
  webRoot?: string;
  logger?: boolean;
}

/** Builds the HTTP app. Routes of later issues register here. */
export async function buildApp(options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({ logger: options.logger ?? false });
  app.get("/api/health", async () => ({ ok: true }));
  if (options.webRoot && existsSync(options.webRoot)) {
    await app.register(fastifyStatic, { root: options.webRoot, index: "index.html" });
    // Client-side routes (/auth/callback) get the app shell; unknown API paths stay 404 JSON.
    app.setNotFoundHandler((request, reply) => {
      if (request.method === "GET" && !request.url.startsWith("/api/"))
        return reply.sendFile("index.html");
      return reply.code(404).send({ error: "Not found" });
    });
  }
  return app;
}
