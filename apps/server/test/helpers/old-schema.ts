import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import releases from "../../src/db/releases.json" with { type: "json" };

const MIGRATIONS = fileURLToPath(new URL("../../src/db/migrations", import.meta.url));

/** Every tagged release and the last migration it shipped (src/db/releases.json). */
export const RELEASES = releases.releases;

interface Journal {
  entries: { tag: string }[];
}

/**
 * The migrations folder as release `tag` shipped it: its SQL files and a journal that ends
 * at `tag`, so drizzle's migrator applies exactly what that release's start-up applied.
 */
export function migrationsUpTo(tag: string): string {
  const journal = JSON.parse(
    readFileSync(join(MIGRATIONS, "meta/_journal.json"), "utf8"),
  ) as Journal;
  const end = journal.entries.findIndex((entry) => entry.tag === tag);
  if (end < 0) throw new Error(`No migration ${tag} in the journal`);
  const entries = journal.entries.slice(0, end + 1);
  const folder = mkdtempSync(join(tmpdir(), "atelier-migrations-"));
  mkdirSync(join(folder, "meta"));
  for (const entry of entries)
    cpSync(join(MIGRATIONS, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  writeFileSync(join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));
  return folder;
}

/** One SQL method over either engine, for writing rows in an old schema. */
export interface OldDatabase {
  query(sql: string, params?: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * The database of `place` (PGlite in `dataDir/db`, or the PostgreSQL at `url`) migrated up to
 * release migration `tag` only, as that release would have left it.
 */
export async function openOldDatabase(
  where: { dataDir: string; url: string | null },
  tag: string,
): Promise<OldDatabase> {
  const migrationsFolder = migrationsUpTo(tag);
  if (!where.url) {
    const client = await PGlite.create({ dataDir: join(where.dataDir, "db") });
    await migratePglite(drizzlePglite({ client }), { migrationsFolder });
    return {
      query: (sql, params) => client.query(sql, params),
      close: () => client.close(),
    };
  }
  const pool = new pg.Pool({ connectionString: where.url, max: 1 });
  await migratePg(drizzlePg({ client: pool }), { migrationsFolder });
  return {
    query: (sql, params) => pool.query(sql, params),
    close: () => pool.end(),
  };
}
