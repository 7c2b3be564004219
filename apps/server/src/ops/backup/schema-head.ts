import journal from "../../db/migrations/meta/_journal.json" with { type: "json" };
import { BackupError } from "./errors.ts";
import type { Queryable } from "./table-counts.ts";

/** The last migration applied to a database: its journal tag (null when unknown here) and time. */
export interface SchemaHead {
  tag: string | null;
  when: number;
}

const entries = journal.entries.map((entry) => ({ tag: entry.tag, when: entry.when }));

/** The last migration this version of Atelier ships. */
export function currentSchemaHead(): SchemaHead {
  const last = entries.at(-1);
  if (!last) throw new Error("The migrations journal is empty");
  return last;
}

/**
 * The last migration drizzle recorded in the database (it keeps each one's journal time as
 * `created_at`); a database that was never started has none.
 */
export async function schemaHeadOf(db: Queryable): Promise<SchemaHead> {
  const table = await db.query<{ found: string | null }>(
    "select to_regclass('drizzle.__drizzle_migrations')::text as found",
  );
  if (!table.rows[0]?.found)
    throw new BackupError(
      "The database has no Atelier schema (never started?) — start the server once, or check DATA_DIR / DATABASE_URL",
    );
  const last = await db.query<{ created_at: string | number }>(
    "select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1",
  );
  const when = Number(last.rows[0]?.created_at ?? 0);
  return { tag: entries.find((entry) => entry.when === when)?.tag ?? null, when };
}

/** Refuses a backup whose schema is newer than this version's migrations know. */
export function assertRestorable(backup: SchemaHead, appVersion: string): void {
  const current = currentSchemaHead();
  if (backup.when > current.when || (backup.tag && !entries.some((e) => e.tag === backup.tag)))
    throw new BackupError(
      `The backup's schema (${backup.tag ?? backup.when}) is newer than this version's (${current.tag}) — restore it with the Atelier version that made it (${appVersion}) or later`,
    );
}
