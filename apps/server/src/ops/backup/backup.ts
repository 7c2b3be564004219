import { copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Config } from "../../env.ts";
import { listBucket } from "./bucket-listing.ts";
import { BackupError } from "./errors.ts";
import {
  APP_VERSION,
  type BackupManifest,
  type DatabasePart,
  FORMAT_VERSION,
  type MediaPart,
  writeManifest,
} from "./manifest.ts";
import { copyMediaFolder } from "./media-folder.ts";
import { assertPgliteReady, dumpPglite } from "./pglite-data.ts";
import { assertClientTools, dumpPostgres, engineOf, withPostgres } from "./postgres-data.ts";
import { formatBytes, type Printer } from "./printer.ts";
import type { SchemaHead } from "./schema-head.ts";
import { schemaHeadOf } from "./schema-head.ts";
import { countRows, describeCounts, type TableCounts } from "./table-counts.ts";

export interface BackupOptions {
  /** The backup folder to write; it must not exist or be empty. Default: ./backups/atelier-<time>. */
  out?: string;
  print: Printer;
  now?: Date;
}

/** Parts of the backup folder. */
export const PARTS = {
  pglite: "database.tar.gz",
  postgres: "database.pgdump",
  media: "media",
  listing: "media-listing.json",
  authSecret: "auth-secret",
} as const;

const stamp = (date: Date) => date.toISOString().replace(/[-:]/g, "").replace(/\..*$/, "");

/**
 * Writes one folder holding the database (PGlite's data directory, or pg_dump), the media
 * (the local folder, or the bucket's listing), the generated auth secret and manifest.json.
 */
export async function createBackup(
  config: Config,
  options: BackupOptions,
): Promise<BackupManifest> {
  const { print, now = new Date() } = options;
  const out = resolve(options.out ?? join("backups", `atelier-${stamp(now)}`));
  const existing = await readdir(out).catch(() => null);
  if (existing && existing.length > 0)
    throw new BackupError(`${out} is not empty — choose another --out`);
  if (config.databaseUrl) assertClientTools();
  else assertPgliteReady(join(config.dataDir, "db"));
  await mkdir(out, { recursive: true });
  print(`Backing up to ${out}`);
  try {
    return await writeBackup(config, out, now, print);
  } catch (error) {
    // Half a backup must not pass for one.
    await rm(out, { recursive: true, force: true });
    throw error;
  }
}

async function writeBackup(
  config: Config,
  out: string,
  now: Date,
  print: Printer,
): Promise<BackupManifest> {
  const { database, head, counts } = await backUpDatabase(config, out, print);
  print(`  database: ${describeCounts(counts)} (schema ${head.tag ?? head.when})`);
  const media = await backUpMedia(config, out, print);

  // The generated secret (not one from AUTH_SECRET) signs sessions: without it everyone
  // would have to sign in again after a restore.
  let authSecret: string | null = null;
  const secretFile = join(config.dataDir, "auth-secret");
  if ((await readFile(secretFile, "utf8").catch(() => "")).trim() === config.authSecret) {
    await copyFile(secretFile, join(out, PARTS.authSecret));
    authSecret = PARTS.authSecret;
  }
  print(
    authSecret
      ? "  auth secret: DATA_DIR/auth-secret copied (keep this backup private)"
      : "  auth secret: AUTH_SECRET comes from the environment — keep your .env with the backup",
  );

  const manifest: BackupManifest = {
    format: "atelier-backup",
    formatVersion: FORMAT_VERSION,
    appVersion: APP_VERSION,
    createdAt: now.toISOString(),
    schemaHead: head,
    database,
    media,
    authSecret,
    counts,
  };
  await writeManifest(out, manifest);
  print(
    `Backup done: ${counts.workflows} workflows, ${counts.users} users, ${media.files} files (${formatBytes(media.bytes)}${media.kind === "s3" ? " listed in the bucket" : ""}), database ${formatBytes(database.bytes)} → ${out}`,
  );
  return manifest;
}

async function backUpDatabase(
  config: Config,
  out: string,
  print: Printer,
): Promise<{ database: DatabasePart; head: SchemaHead; counts: TableCounts }> {
  const url = config.databaseUrl;
  if (!url) {
    const dir = join(config.dataDir, "db");
    print(`  database: PGlite at ${dir}`);
    const file = join(out, PARTS.pglite);
    const { head, counts, engine } = await dumpPglite(dir, file);
    const bytes = (await stat(file)).size;
    return { database: { kind: "pglite", file: PARTS.pglite, bytes, engine }, head, counts };
  }
  print("  database: PostgreSQL at DATABASE_URL (pg_dump)");
  const { head, counts, engine } = await withPostgres(url, async (db) => ({
    head: await schemaHeadOf(db),
    counts: await countRows(db),
    engine: await engineOf(db),
  }));
  const file = join(out, PARTS.postgres);
  await dumpPostgres(url, file);
  const bytes = (await stat(file)).size;
  return { database: { kind: "postgres", file: PARTS.postgres, bytes, engine }, head, counts };
}

async function backUpMedia(config: Config, out: string, print: Printer): Promise<MediaPart> {
  if (!config.s3) {
    const from = join(config.dataDir, "media");
    print(`  media: copying ${from}`);
    const totals = await copyMediaFolder(from, join(out, PARTS.media));
    print(`  media: ${totals.files} files, ${formatBytes(totals.bytes)}`);
    return { kind: "fs", folder: PARTS.media, ...totals };
  }
  const bucket = config.s3.bucket;
  print(`  media: listing bucket ${bucket} (back its objects up with the bucket's own tools)`);
  const objects = await listBucket(config.s3).catch((error: Error) => {
    throw new BackupError(
      `Could not list bucket ${bucket} (${error.message}) — check the S3_* settings`,
    );
  });
  await writeFile(join(out, PARTS.listing), `${JSON.stringify({ bucket, objects })}\n`);
  const bytes = objects.reduce((total, object) => total + object.size, 0);
  print(`  media: ${objects.length} objects, ${formatBytes(bytes)} listed`);
  return { kind: "s3", bucket, listing: PARTS.listing, files: objects.length, bytes };
}
