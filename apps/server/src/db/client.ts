import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { schema } from "./schema.ts";

export type AppDb = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  kind: "pglite" | "postgres";
  db: AppDb;
  /** Calls `handler` with each payload sent on `channel` by any process; returns a stop function. */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  /** Exposed for tests and the health check. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** PGlite only: the engine itself (dumps for test templates). */
  pglite?: PGlite;
}

// src/db/migrations, or dist/migrations beside the build's chunks (scripts/build-server.mjs).
const MIGRATIONS = fileURLToPath(new URL("./migrations", import.meta.url));
/** Any number; the same on every process so only one migrates at a time. */
const MIGRATION_LOCK = 724_311;

export interface DatabaseOptions {
  /** postgres:// URL; absent → PGlite. */
  url?: string | null;
  /** PGlite data directory; absent → in memory. */
  dataDir?: string;
  /** PGlite: start from this dump of a data directory (fast test set-up). */
  loadDataDir?: Blob;
}

async function openPglite(options: DatabaseOptions): Promise<Database> {
  const client = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const db = drizzlePglite({ client, schema }) as unknown as AppDb;
  await migratePglite(db as never, { migrationsFolder: MIGRATIONS });
  return {
    kind: "pglite",
    db,
    pglite: client,
    async listen(channel, handler) {
      const stop = await client.listen(channel, handler);
      return async () => {
        if (!client.closed) await stop();
      };
    },
    async ping() {
      await client.query("select 1");
      return true;
    },
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

async function openPostgres(url: string): Promise<Database> {
  // Idle connections stay 5 min (pg's default is 10 s): a lull between bursts would otherwise
  // close them all, and the next burst's requests wait for fresh connections and backends
  // (bench Q4: p99 1.34× → 1.06× its idle figure).
  const pool = new pg.Pool({ connectionString: url, max: 10, idleTimeoutMillis: 300_000 });
  pool.on("error", () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  const db = drizzlePg({ client: pool, schema }) as unknown as AppDb;
  const lock = await pool.connect();
  try {
    await lock.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migratePg(db as never, { migrationsFolder: MIGRATIONS });
  } finally {
    await lock.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    lock.release();
  }
  const listeners = new Set<pg.Client>();
  return {
    kind: "postgres",
    db,
    async listen(channel, handler) {
      // One dedicated connection per subscription (LISTEN belongs to a session), made again
      // with back-off whenever it drops, so event streams never go silent for good.
      let client: pg.Client | null = null;
      let stopped = false;
      let delay = 500;
      const connect = async (): Promise<void> => {
        const next = new pg.Client({ connectionString: url });
        const retry = () => {
          if (stopped || client !== next) return;
          listeners.delete(next);
          client = null;
          setTimeout(() => void connect().catch(retry), delay);
          delay = Math.min(delay * 2, 30_000);
        };
        client = next;
        next.on("notification", (message) => {
          if (message.channel === channel) handler(message.payload ?? "");
        });
        next.on("error", retry);
        next.on("end", retry);
        await next.connect();
        await next.query(`listen ${pg.escapeIdentifier(channel)}`);
        listeners.add(next);
        delay = 500;
      };
      await connect();
      return async () => {
        stopped = true;
        const current = client;
        client = null;
        if (current) {
          listeners.delete(current);
          await current.end().catch(() => undefined);
        }
      };
    },
    async ping() {
      await pool.query("select 1");
      return true;
    },
    async close() {
      await Promise.all([...listeners].map((client) => client.end().catch(() => undefined)));
      await pool.end();
    },
  };
}

/** Opens PostgreSQL when a URL is given, else PGlite; migrations are applied either way. */
export function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url) : openPglite(options);
}
