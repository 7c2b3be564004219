import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.ts";
import { type AppContext, createContext } from "../../src/context.ts";
import { type Config, loadConfig } from "../../src/env.ts";
import { createPostgresDatabaseUrl, TEST_DB_KIND } from "./database.ts";
import { freePort } from "./server.ts";

/**
 * Where an instance keeps its data, as an operator configures it: a DATA_DIR of its own
 * and, in the PostgreSQL run, a new database of its own (DATABASE_URL). No AUTH_SECRET: the
 * generated one in DATA_DIR is part of what backups carry.
 */
export interface DataPlace {
  env: Record<string, string>;
  dataDir: string;
  databaseUrl: string | null;
  /** The configuration on `port` (PUBLIC_URL follows it). */
  config(port?: number): Config;
  drop(): Promise<void>;
}

/** A new place; `extra` adds settings (an S3 bucket, say). */
export async function createDataPlace(extra: Record<string, string> = {}): Promise<DataPlace> {
  const dataDir = mkdtempSync(join(tmpdir(), "atelier-place-"));
  const database = TEST_DB_KIND === "postgres" ? await createPostgresDatabaseUrl() : null;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    RATE_LIMIT_SIGN_IN_PER_MINUTE: "1000",
    RATE_LIMIT_UPLOADS_PER_MINUTE: "1000",
    RATE_LIMIT_UPLOADS_PER_SESSION_PER_MINUTE: "1000",
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...extra,
  };
  return {
    env,
    dataDir,
    databaseUrl: database?.url ?? null,
    config: (port = 3000) =>
      loadConfig({ ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` }),
    async drop() {
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface PlaceServer {
  url: string;
  app: FastifyInstance;
  ctx: AppContext;
  close(): Promise<void>;
}

/** The server as `npm start` opens it on `place` (database and store from its settings). */
export async function startServerOn(place: DataPlace): Promise<PlaceServer> {
  const port = await freePort();
  const ctx = await createContext(place.config(port));
  const app = await buildApp(ctx);
  await app.listen({ port, host: "127.0.0.1" });
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    ctx,
    async close() {
      await app.close();
      await ctx.close();
    },
  };
}
