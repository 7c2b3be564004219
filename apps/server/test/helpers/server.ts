import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.ts";
import { type AppContext, createContext } from "../../src/context.ts";
import { loadConfig } from "../../src/env.ts";
import type { BlobStore } from "../../src/storage/blob-store.ts";
import { createTestDatabase } from "./database.ts";

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface TestServer {
  url: string;
  app: FastifyInstance;
  ctx: AppContext;
  dataDir: string;
  /** Every route the app registered, as "METHOD /url". */
  routes: string[];
  close(): Promise<void>;
}

/**
 * The real server on a loopback port, with a fresh database (PGlite, or PostgreSQL in the
 * PostgreSQL run) and files in a temporary directory. `env` adds configuration.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  store?: BlobStore,
): Promise<TestServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "atelier-server-"));
  const config = loadConfig({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
    // Tests run many requests from one address and user: limits only where a test sets one.
    RATE_LIMIT_SIGN_IN_PER_MINUTE: "1000",
    RATE_LIMIT_UPLOADS_PER_MINUTE: "1000",
    RATE_LIMIT_UPLOADS_PER_SESSION_PER_MINUTE: "1000",
    RATE_LIMIT_GENERATIONS_PER_MINUTE: "1000",
    RATE_LIMIT_ANONYMOUS_GENERATIONS_PER_MINUTE: "1000",
    ANONYMOUS_GENERATIONS_PER_MINUTE: "1000",
    CONCURRENT_JOBS_PER_USER: "1000",
    CONCURRENT_JOBS_PER_ANONYMOUS: "1000",
    CONCURRENT_JOBS_PER_ANONYMOUS_ADDRESS: "1000",
    ...env,
  });
  const testDb = await createTestDatabase();
  const ctx = await createContext(config, {
    database: testDb.database,
    databaseUrl: testDb.url,
    ...(store ? { store } : {}),
  });
  const routes: string[] = [];
  const app = await buildApp(ctx, {
    onRoute: (route) => routes.push(`${route.method} ${route.url}`),
  });
  await app.listen({ port: config.port, host: "127.0.0.1" });
  return {
    url: `http://127.0.0.1:${config.port}`,
    app,
    ctx,
    dataDir,
    routes,
    async close() {
      await app.close();
      await ctx.shutdown();
      await testDb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
