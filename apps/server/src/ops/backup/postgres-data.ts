import { spawn, spawnSync } from "node:child_process";
import pg from "pg";
import { BackupError } from "./errors.ts";
import type { Queryable } from "./table-counts.ts";

/** pg_dump and pg_restore must be on PATH (the PostgreSQL client tools, as new as the server). */
export function assertClientTools(): void {
  const missing = ["pg_dump", "pg_restore"].filter(
    (tool) => spawnSync(tool, ["--version"], { stdio: "ignore" }).error !== undefined,
  );
  if (missing.length > 0)
    throw new BackupError(
      `${missing.join(" and ")} not found on PATH — install the PostgreSQL client tools (postgresql-client, the server's major version or newer)`,
    );
}

/**
 * The connection string without its password, which goes in PGPASSWORD instead, so it never
 * shows in the process list.
 */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return {
    dbname: parsed.toString(),
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
  };
}

function run(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.once("error", reject);
    child.once("close", (code) => {
      if (code === 0) return resolve();
      const first = stderr.trim().split("\n")[0] ?? "";
      reject(new BackupError(`${tool} failed (exit ${code}): ${first}`));
    });
  });
}

/** A consistent snapshot while the server runs: pg_dump's custom format (one file). */
export async function dumpPostgres(url: string, file: string): Promise<void> {
  const { dbname, env } = connection(url);
  await run("pg_dump", ["--format=custom", `--file=${file}`, `--dbname=${dbname}`], env);
}

/** Restores into `url` in one transaction; objects owned by whoever restores. */
export async function restorePostgres(file: string, url: string): Promise<void> {
  const { dbname, env } = connection(url);
  await run(
    "pg_restore",
    [
      "--no-owner",
      "--no-privileges",
      "--exit-on-error",
      "--single-transaction",
      `--dbname=${dbname}`,
      file,
    ],
    env,
  );
}

/** Runs `use` with one connection to `url`, closed afterwards. */
export async function withPostgres<T>(url: string, use: (db: Queryable) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use({ query: (sql) => client.query(sql) as never });
  } finally {
    await client.end();
  }
}

/** Schemas that belong to the database rather than to PostgreSQL itself. */
async function userSchemas(db: Queryable): Promise<string[]> {
  const answer = await db.query<{ nspname: string }>(
    "select nspname from pg_namespace where nspname not like 'pg\\_%' and nspname <> 'information_schema'",
  );
  return answer.rows.map((row) => row.nspname);
}

/** Tables outside PostgreSQL's own schemas: none in a database fit to restore into. */
export async function tableCount(db: Queryable): Promise<number> {
  const answer = await db.query<{ count: string }>(
    "select count(*) as count from pg_tables where schemaname not like 'pg\\_%' and schemaname <> 'information_schema'",
  );
  return Number(answer.rows[0]?.count ?? 0);
}

/** --force: drops every user schema (tables, pg-boss's queue, drizzle's journal), leaves `public` empty. */
export async function clearDatabase(db: Queryable): Promise<void> {
  try {
    for (const schema of await userSchemas(db))
      await db.query(`drop schema ${pg.escapeIdentifier(schema)} cascade`);
    await db.query("create schema if not exists public");
  } catch (error) {
    throw new BackupError(
      `Could not empty the database at DATABASE_URL (${(error as Error).message}) — restore into a new empty database instead (createdb)`,
    );
  }
}

export async function engineOf(db: Queryable): Promise<string> {
  const answer = await db.query<{ server_version: string }>("show server_version");
  return `PostgreSQL ${answer.rows[0]?.server_version ?? "?"}`;
}
