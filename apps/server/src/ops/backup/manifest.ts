import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import serverPackage from "../../../package.json" with { type: "json" };
import { BackupError } from "./errors.ts";
import type { SchemaHead } from "./schema-head.ts";
import type { TableCounts } from "./table-counts.ts";

export const MANIFEST_FILE = "manifest.json";
/** Raised when the layout of a backup folder changes; a restore refuses newer formats. */
export const FORMAT_VERSION = 1;
export const APP_VERSION = serverPackage.version;

/** The database part: PGlite's data directory as a tarball, or a pg_dump custom-format file. */
export type DatabasePart =
  | { kind: "pglite"; file: string; bytes: number; engine: string }
  | { kind: "postgres"; file: string; bytes: number; engine: string };

/**
 * The media part: the local folder copied whole, or, for a bucket, a listing of its keys and
 * sizes (the objects themselves are backed up with the bucket's own tools).
 */
export type MediaPart =
  | { kind: "fs"; folder: string; files: number; bytes: number }
  | { kind: "s3"; bucket: string; listing: string; files: number; bytes: number };

/** `manifest.json` at the root of a backup folder: what it holds and where it came from. */
export interface BackupManifest {
  format: "atelier-backup";
  formatVersion: number;
  appVersion: string;
  createdAt: string;
  schemaHead: SchemaHead;
  database: DatabasePart;
  media: MediaPart;
  /** The generated auth secret's file, or null when AUTH_SECRET came from the environment. */
  authSecret: string | null;
  counts: TableCounts;
}

export async function writeManifest(folder: string, manifest: BackupManifest): Promise<void> {
  await writeFile(join(folder, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}

export async function readManifest(folder: string): Promise<BackupManifest> {
  let text: string;
  try {
    text = await readFile(join(folder, MANIFEST_FILE), "utf8");
  } catch {
    throw new BackupError(`${folder} is not an Atelier backup (no ${MANIFEST_FILE})`);
  }
  const manifest = JSON.parse(text) as BackupManifest;
  if (manifest.format !== "atelier-backup")
    throw new BackupError(`${folder} is not an Atelier backup (${MANIFEST_FILE} says otherwise)`);
  if (manifest.formatVersion > FORMAT_VERSION)
    throw new BackupError(
      `This backup's format (${manifest.formatVersion}) is newer than this version reads (${FORMAT_VERSION}) — restore it with Atelier ${manifest.appVersion} or later`,
    );
  return manifest;
}
