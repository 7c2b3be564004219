import { randomBytes } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { type Database, openDatabase } from "../../src/db/client.ts";

/** "postgres" when this run targets PostgreSQL (vitest.pg.config.ts), else PGlite. */
export const TEST_DB_KIND = process.env.ATELIER_TEST_DB === "postgres" ? "postgres" : "pglite";

let template: Promise<Blob> | null = null;

/** A migrated PGlite data directory, made once per worker and copied for each test server. */
function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const database = await openDatabase({});
    const dump = await (database.pglite as PGlite).dumpDataDir("none");
    await database.close();
    return dump;
  })();
  return template;
}

export interface TestDatabase {
  database: Database;
  url: string | null;
  drop(): Promise<void>;
}

/** A fresh, migrated database: in-memory PGlite, or a new PostgreSQL database. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (TEST_DB_KIND === "pglite") {
    const database = await openDatabase({ loadDataDir: await pgliteTemplate() });
    return { database, url: null, drop: () => database.close() };
  }
  const created = await createPostgresDatabaseUrl();
  const database = await openDatabase({ url: created.url });
  return {
    database,
    url: created.url,
    async drop() {
      await database.close();
      await created.drop();
    },
  };
}

/** A new empty PostgreSQL database URL (for tests that start their own processes). */
export async function createPostgresDatabaseUrl(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is required");
  const name = `atelier_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
