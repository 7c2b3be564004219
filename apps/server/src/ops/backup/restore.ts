import { chmod, copyFile, readFile, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Config } from "../../env.ts";
import type { S3Options } from "../../storage/s3-store.ts";
import { type ListedObject, listBucket, missingObjects } from "./bucket-listing.ts";
import { BackupError } from "./errors.ts";
import { type BackupManifest, readManifest } from "./manifest.ts";
import { copyMediaFolder } from "./media-folder.ts";
import { assertPgliteStopped, isEmptyFolder, loadPglite } from "./pglite-data.ts";
import {
  assertClientTools,
  clearDatabase,
  restorePostgres,
  tableCount,
  withPostgres,
} from "./postgres-data.ts";
import { formatBytes, type Printer } from "./printer.ts";
import { assertRestorable, currentSchemaHead } from "./schema-head.ts";
import { countRows, describeCounts, type TableCounts } from "./table-counts.ts";

export interface RestoreOptions {
  /** The backup folder (holding manifest.json). */
  from: string;
  /** Replace a database or media folder that is not empty. */
  force?: boolean;
  print: Printer;
}

export interface RestoreResult {
  manifest: BackupManifest;
  counts: TableCounts;
  media: { files: number; bytes: number };
  /** Bucket objects the backup listed that the bucket lacks (S3 only). */
  missing: ListedObject[];
}

/**
 * Puts a backup back where this configuration keeps its data: DATA_DIR/db or DATABASE_URL,
 * DATA_DIR/media or a check of the bucket. The schema is left as the backup had it; the
 * server's start-up migrations bring it up to date.
 */
export async function restoreBackup(
  config: Config,
  options: RestoreOptions,
): Promise<RestoreResult> {
  const { print, force = false } = options;
  const from = resolve(options.from);
  const manifest = await readManifest(from);
  assertRestorable(manifest.schemaHead, manifest.appVersion);
  assertSameShape(manifest, config);
  print(
    `Restoring ${from} (Atelier ${manifest.appVersion}, ${manifest.createdAt}, schema ${manifest.schemaHead.tag})`,
  );

  // Every check before anything changes: a refused restore leaves the target as it was.
  const dbDir = join(config.dataDir, "db");
  const mediaDir = join(config.dataDir, "media");
  if (config.databaseUrl) {
    assertClientTools();
    const tables = await withPostgres(config.databaseUrl, tableCount);
    if (tables > 0 && !force)
      throw new BackupError(
        `The database at DATABASE_URL is not empty (${tables} tables) — restore into a new database, or pass --force to replace it`,
      );
  } else {
    assertPgliteStopped(dbDir);
    if (!(await isEmptyFolder(dbDir)) && !force)
      throw new BackupError(`${dbDir} is not empty — pass --force to replace it`);
  }
  if (manifest.media.kind === "fs" && !(await isEmptyFolder(mediaDir)) && !force)
    throw new BackupError(`${mediaDir} is not empty — pass --force to replace it`);

  const counts = await restoreDatabase(manifest, from, config, force, print);
  print(`  database: ${describeCounts(counts)}`);
  if (JSON.stringify(counts) !== JSON.stringify(manifest.counts))
    print(`  warning: the backup counted ${describeCounts(manifest.counts)}`);

  let media = { files: 0, bytes: 0 };
  let missing: ListedObject[] = [];
  if (manifest.media.kind === "fs") {
    print(`  media: copying into ${mediaDir}`);
    media = await copyMediaFolder(join(from, manifest.media.folder), mediaDir);
    print(`  media: ${media.files} files, ${formatBytes(media.bytes)}`);
  } else if (config.s3) {
    missing = await checkBucket(manifest, from, config.s3, print);
    media = { files: manifest.media.files, bytes: manifest.media.bytes };
  }

  await restoreAuthSecret(manifest, from, config, print);
  const current = currentSchemaHead();
  print(
    manifest.schemaHead.tag === current.tag
      ? "Start the server as usual."
      : `Start the server as usual: its migrations bring the schema from ${manifest.schemaHead.tag} to ${current.tag}.`,
  );
  print(
    `Restore done: ${counts.workflows} workflows, ${counts.users} users, ${media.files} files (${formatBytes(media.bytes)})${missing.length ? `, ${missing.length} missing from the bucket` : ""}`,
  );
  return { manifest, counts, media, missing };
}

/** A PGlite backup goes to PGlite, a PostgreSQL one to PostgreSQL; files likewise. */
function assertSameShape(manifest: BackupManifest, config: Config): void {
  const database = config.databaseUrl ? "postgres" : "pglite";
  if (manifest.database.kind !== database)
    throw new BackupError(
      manifest.database.kind === "pglite"
        ? "This backup holds a PGlite database but DATABASE_URL is set — unset DATABASE_URL to restore it"
        : "This backup holds a PostgreSQL dump but DATABASE_URL is not set — set DATABASE_URL to an empty database",
    );
  const media = config.s3 ? "s3" : "fs";
  if (manifest.media.kind !== media)
    throw new BackupError(
      manifest.media.kind === "fs"
        ? "This backup holds a local media folder but S3_BUCKET is set — unset the S3_* settings to restore it"
        : `This backup lists bucket ${manifest.media.bucket} but no S3_* settings are given — set them to that bucket`,
    );
}

async function restoreDatabase(
  manifest: BackupManifest,
  from: string,
  config: Config,
  force: boolean,
  print: Printer,
): Promise<TableCounts> {
  const file = join(from, manifest.database.file);
  const url = config.databaseUrl;
  if (!url) {
    const dir = join(config.dataDir, "db");
    print(`  database: loading PGlite into ${dir}`);
    return loadPglite(file, dir);
  }
  if (force)
    await withPostgres(url, async (db) => {
      if ((await tableCount(db)) === 0) return;
      print("  database: emptying the database at DATABASE_URL (--force)");
      await clearDatabase(db);
    });
  print("  database: pg_restore into DATABASE_URL");
  await restorePostgres(file, url);
  return withPostgres(url, countRows);
}

async function checkBucket(
  manifest: BackupManifest,
  from: string,
  s3: S3Options,
  print: Printer,
): Promise<ListedObject[]> {
  if (manifest.media.kind !== "s3") return [];
  const bucket = s3.bucket;
  print(`  media: checking bucket ${bucket} against the backup's listing`);
  const listing = JSON.parse(await readFile(join(from, manifest.media.listing), "utf8")) as {
    objects: ListedObject[];
  };
  const present = await listBucket(s3).catch((error: Error) => {
    throw new BackupError(
      `Could not list bucket ${bucket} (${error.message}) — check the S3_* settings`,
    );
  });
  const missing = missingObjects(listing.objects, present);
  if (missing.length === 0)
    print(`  media: all ${listing.objects.length} objects are in the bucket`);
  else {
    print(
      `  warning: ${missing.length} of ${listing.objects.length} objects are missing from bucket ${bucket} (or differ in size) — restore them with the bucket's own tools:`,
    );
    for (const object of missing.slice(0, 20)) print(`    ${object.key} (${object.size} bytes)`);
    if (missing.length > 20) print(`    … and ${missing.length - 20} more`);
  }
  return missing;
}

/** The backup's generated secret replaces this data dir's, unless AUTH_SECRET is set. */
async function restoreAuthSecret(
  manifest: BackupManifest,
  from: string,
  config: Config,
  print: Printer,
): Promise<void> {
  if (!manifest.authSecret) return;
  const target = join(config.dataDir, "auth-secret");
  const secret = (await readFile(join(from, manifest.authSecret), "utf8")).trim();
  const generated = (await readFile(target, "utf8").catch(() => "")).trim();
  if (generated !== config.authSecret) {
    if (config.authSecret !== secret)
      print(
        "  note: AUTH_SECRET is set and differs from the backup's secret — everyone signs in again",
      );
    return;
  }
  await rm(target, { force: true });
  await copyFile(join(from, manifest.authSecret), target);
  await chmod(target, 0o600);
  print("  auth secret: restored into DATA_DIR/auth-secret");
}
