import { createWriteStream, existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { PGlite } from "@electric-sql/pglite";
import { BackupError } from "./errors.ts";
import { type SchemaHead, schemaHeadOf } from "./schema-head.ts";
import { countRows, type TableCounts } from "./table-counts.ts";

/**
 * PGlite keeps `postmaster.pid` in its data directory while it is open and removes it on a
 * clean close. Two PGlite instances on one directory would corrupt it, and a running
 * server's data is not consistent on disk, so the server must be stopped.
 */
export function assertPgliteStopped(dir: string): void {
  if (existsSync(join(dir, "postmaster.pid")))
    throw new BackupError(
      `The database at ${dir} is in use (postmaster.pid) — stop the Atelier server first (if it is not running, it stopped uncleanly: start and stop it once)`,
    );
}

export async function isEmptyFolder(dir: string): Promise<boolean> {
  const entries = await readdir(dir).catch(() => []);
  return entries.length === 0;
}

/** A PGlite database exists at `dir` and no process has it open. */
export function assertPgliteReady(dir: string): void {
  if (!existsSync(join(dir, "PG_VERSION")))
    throw new BackupError(
      `No database at ${dir} — start the server once, or set DATA_DIR to the folder it uses`,
    );
  assertPgliteStopped(dir);
}

/** Opens the data directory, reads what the manifest needs, then writes PGlite's tarball. */
export async function dumpPglite(
  dir: string,
  file: string,
): Promise<{ head: SchemaHead; counts: TableCounts; engine: string }> {
  assertPgliteReady(dir);
  const client = await PGlite.create({ dataDir: dir });
  try {
    const head = await schemaHeadOf(client);
    const counts = await countRows(client);
    const engine = await engineOf(client);
    const tarball = await client.dumpDataDir("gzip");
    await pipeline(
      Readable.fromWeb(tarball.stream() as import("node:stream/web").ReadableStream),
      createWriteStream(file),
    );
    return { head, counts, engine };
  } finally {
    await client.close();
  }
}

/** Loads a tarball into `dir`, which must not hold a database (the caller clears it). */
export async function loadPglite(file: string, dir: string): Promise<TableCounts> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dirname(dir), { recursive: true });
  const tarball = new Blob([await readFile(file)]);
  const client = await PGlite.create({ dataDir: dir, loadDataDir: tarball });
  try {
    return await countRows(client);
  } finally {
    await client.close();
  }
}

async function engineOf(client: PGlite): Promise<string> {
  const answer = await client.query<{ server_version: string }>("show server_version");
  return `PGlite (PostgreSQL ${answer.rows[0]?.server_version ?? "?"})`;
}
