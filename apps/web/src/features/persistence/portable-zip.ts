import {
  PORTABLE_FORMAT,
  PORTABLE_MANIFEST_FILE,
  PORTABLE_MESSAGES,
  PORTABLE_WORKFLOW_FILE,
  type PortableManifest,
  type SavedWorkflow,
  type ZipListing,
} from "@atelier/core";
import { strFromU8, strToU8, unzipSync, type Zippable, zipSync } from "fflate";

/*
 * Making and reading the portable .zip (fflate). Loaded with the first zip export or import
 * only: the editor's first load does not carry it (bench F1).
 */

/** One media file going into the zip. */
export interface PackedMedia {
  file: string;
  bytes: Uint8Array;
  mimeType: string;
}

/** Media formats already compressed: stored as they are, not deflated again for nothing. */
const STORED =
  /^(image\/(png|jpe?g|gif|webp)|video\/|audio\/(mpeg|mp3|mp4|aac|ogg|webm|x-m4a|m4a)|model\/gltf-binary)/i;

/** The zip of a workflow prepared by `planPortableExport` and its media files. */
export function packPortableZip(
  workflow: SavedWorkflow,
  media: readonly PackedMedia[],
  exportedAt: Date = new Date(),
): Uint8Array {
  const manifest: PortableManifest = {
    format: PORTABLE_FORMAT,
    version: 1,
    exportedAt: exportedAt.toISOString(),
    media: media.map(({ file, bytes, mimeType }) => ({ file, mimeType, bytes: bytes.length })),
  };
  const entries: Zippable = {
    [PORTABLE_MANIFEST_FILE]: strToU8(JSON.stringify(manifest, null, 2)),
    [PORTABLE_WORKFLOW_FILE]: strToU8(JSON.stringify(workflow, null, 2)),
  };
  for (const { file, bytes, mimeType } of media)
    entries[file] = [bytes, { level: STORED.test(mimeType) ? 0 : 6 }];
  return zipSync(entries, { mtime: exportedAt });
}

/**
 * The zip's entries as its directory declares them, before anything is unpacked; throws
 * PORTABLE_MESSAGES.notZip when it is not a zip.
 */
export function listZip(zip: Uint8Array): ZipListing[] {
  const entries: ZipListing[] = [];
  try {
    unzipSync(zip, {
      filter: (entry) => {
        entries.push({ name: entry.name, originalSize: entry.originalSize });
        return false;
      },
    });
  } catch {
    throw new Error(PORTABLE_MESSAGES.notZip);
  }
  return entries;
}

/**
 * One entry unpacked. Its output is bounded by the size the directory declares (checked
 * against the limits beforehand), so a lying entry cannot unpack to more.
 */
export function readZipEntry(zip: Uint8Array, name: string): Uint8Array {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, { filter: (entry) => entry.name === name });
  } catch {
    throw new Error(PORTABLE_MESSAGES.notZip);
  }
  const bytes = files[name];
  if (!bytes) throw new Error(PORTABLE_MESSAGES.missingFile(name));
  return bytes;
}

/** An entry's text (UTF-8). */
export const readZipText = (zip: Uint8Array, name: string) => strFromU8(readZipEntry(zip, name));
