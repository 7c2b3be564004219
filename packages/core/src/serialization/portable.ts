/**
 * The portable export: a .zip holding `workflow.json`, every media file it references under
 * `media/`, and `atelier-export.json` listing those files. In `workflow.json` each reference
 * is the file's path inside the zip; importing uploads the files and points the references
 * at the new stored files. The zip itself is made and read by the web app; the rules of what
 * goes in, what may come out and how references move are here.
 */

import { z } from "zod";
import { LIMITS } from "../limits.ts";
import type { SavedWorkflow } from "../schema/workflow.ts";
import {
  extensionForMimeType,
  fileExtension,
  kindsOfExtension,
  validateUpload,
} from "../validation/upload.ts";
import { dataUrlMimeType } from "./data-url.ts";
import { type MediaLocation, rewriteMediaReferences, urlPathOf } from "./media-walk.ts";
import { formatMegabytes } from "./size.ts";

export const PORTABLE_FORMAT = "atelier.portable-workflow";
export const PORTABLE_MANIFEST_FILE = "atelier-export.json";
export const PORTABLE_WORKFLOW_FILE = "workflow.json";
export const PORTABLE_MEDIA_FOLDER = "media/";

/**
 * Entries a zip may hold. Not a SPEC figure: a bound on the listing read before anything
 * is unpacked, far above what a workflow's media comes to.
 */
export const PORTABLE_MAX_ENTRIES = 5000;
/** The manifest is a short list; anything bigger is not one. */
const MAX_MANIFEST_BYTES = 1024 * 1024;

const zPortableMedia = z.object({
  file: z.string().min(1).max(255),
  mimeType: z.string().max(255),
  bytes: z.number().int().min(0),
});
export type PortableMedia = z.infer<typeof zPortableMedia>;

export const zPortableManifest = z.object({
  format: z.literal(PORTABLE_FORMAT),
  version: z.literal(1),
  exportedAt: z.string().optional(),
  media: z.array(zPortableMedia).max(PORTABLE_MAX_ENTRIES),
});
export type PortableManifest = z.infer<typeof zPortableManifest>;

/** Shown names of zip entries: no control characters, no more than 80 characters. */
export function displayEntryName(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, "");
  return clean.length > 80 ? `${clean.slice(0, 77)}...` : clean;
}

const mb = (bytes: number) => formatMegabytes(bytes);

/** What the user reads when a zip is refused (the canvas is left as it was). */
export const PORTABLE_MESSAGES = {
  notZip: "This file is not a valid .zip archive. Nothing was imported.",
  notExport: `This .zip is not an Atelier export: it holds no ${PORTABLE_MANIFEST_FILE}. Nothing was imported.`,
  badManifest: `This .zip's ${PORTABLE_MANIFEST_FILE} is not valid. Nothing was imported.`,
  unsafeName: 'This .zip holds an unsafe file path (absolute, or with ".."). Nothing was imported.',
  tooManyEntries: `This .zip holds more than ${PORTABLE_MAX_ENTRIES} files. Nothing was imported.`,
  tooLarge: (bytes: number) =>
    `This .zip unpacks to ${mb(bytes)} MB, over the ${mb(LIMITS.storage.cloudQuotaBytes)} MB storage limit. Nothing was imported.`,
  workflowTooLarge: (bytes: number) =>
    `The workflow in this .zip is ${mb(bytes)} MB, over the ${mb(LIMITS.chunking.maxWorkflowBytes)} MB workflow limit. Nothing was imported.`,
  fileTooLarge: (name: string) =>
    `${displayEntryName(name)} in this .zip is over the ${mb(LIMITS.upload.maxFileBytes)} MB upload limit. Nothing was imported.`,
  missingFile: (name: string) =>
    `This .zip lists ${displayEntryName(name)} but does not hold it. Nothing was imported.`,
  uploadFailed: (name: string, reason: string) =>
    `Could not upload ${displayEntryName(name)} from the .zip: ${reason}. Nothing was imported.`,
} as const;

/**
 * True when an entry name is safe to unpack (zip-slip): relative, "/"-separated, with no
 * "." or ".." segment, no empty segment, no drive letter or backslash, no control characters.
 * A trailing "/" (a folder entry) is allowed.
 */
export function isSafeEntryName(name: string): boolean {
  if (name.length === 0 || name.length > 255) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is refused
  if (/[\u0000-\u001f\u007f\\:]/.test(name) || name.startsWith("/")) return false;
  const segments = (name.endsWith("/") ? name.slice(0, -1) : name).split("/");
  return segments.every((segment) => segment !== "" && segment !== "." && segment !== "..");
}

/** One entry of a zip as its directory lists it (before anything is unpacked). */
export interface ZipListing {
  name: string;
  /** The unpacked size the zip declares. */
  originalSize: number;
}

/** Where the export's files sit in the zip: at its root, or in the one folder holding them. */
export interface PortableLayout {
  /** "" or a folder with a trailing "/" (a zip re-made by hand often adds one). */
  root: string;
}

/**
 * Checks a zip's listing before anything is unpacked: safe names, the manifest and workflow
 * present, sizes within the upload, workflow and storage limits. Answers the layout, or
 * throws with a PORTABLE_MESSAGES message.
 */
export function checkPortableListing(entries: readonly ZipListing[]): PortableLayout {
  if (entries.length > PORTABLE_MAX_ENTRIES) throw new Error(PORTABLE_MESSAGES.tooManyEntries);
  if (entries.some((entry) => !isSafeEntryName(entry.name)))
    throw new Error(PORTABLE_MESSAGES.unsafeName);
  const manifests = entries.filter(
    (entry) =>
      entry.name === PORTABLE_MANIFEST_FILE || entry.name.endsWith(`/${PORTABLE_MANIFEST_FILE}`),
  );
  if (manifests.length !== 1) throw new Error(PORTABLE_MESSAGES.notExport);
  const manifest = manifests[0] as ZipListing;
  const root = manifest.name.slice(0, -PORTABLE_MANIFEST_FILE.length);
  if (manifest.originalSize > MAX_MANIFEST_BYTES) throw new Error(PORTABLE_MESSAGES.badManifest);
  const workflow = entries.find((entry) => entry.name === `${root}${PORTABLE_WORKFLOW_FILE}`);
  if (!workflow) throw new Error(PORTABLE_MESSAGES.missingFile(PORTABLE_WORKFLOW_FILE));
  if (workflow.originalSize > LIMITS.chunking.maxWorkflowBytes)
    throw new Error(PORTABLE_MESSAGES.workflowTooLarge(workflow.originalSize));
  const total = entries.reduce((sum, entry) => sum + entry.originalSize, 0);
  if (total > LIMITS.storage.cloudQuotaBytes) throw new Error(PORTABLE_MESSAGES.tooLarge(total));
  return { root };
}

/**
 * Reads the manifest's text and checks it against the listing: every media file it lists is
 * a safe name under `media/`, held by the zip, within the upload limit. Throws with a
 * PORTABLE_MESSAGES message.
 */
export function readPortableManifest(
  text: string,
  entries: readonly ZipListing[],
  layout: PortableLayout,
): PortableManifest {
  let parsed: PortableManifest;
  try {
    parsed = zPortableManifest.parse(JSON.parse(text));
  } catch {
    throw new Error(PORTABLE_MESSAGES.badManifest);
  }
  const sizes = new Map(entries.map((entry) => [entry.name, entry.originalSize]));
  for (const media of parsed.media) {
    if (!isSafeEntryName(media.file) || !media.file.startsWith(PORTABLE_MEDIA_FOLDER))
      throw new Error(PORTABLE_MESSAGES.unsafeName);
    const size = sizes.get(`${layout.root}${media.file}`);
    if (size === undefined) throw new Error(PORTABLE_MESSAGES.missingFile(media.file));
    if (size > LIMITS.upload.maxFileBytes)
      throw new Error(PORTABLE_MESSAGES.fileTooLarge(media.file));
  }
  return parsed;
}

/** Where a file of the export comes from. */
export type PortableSource =
  | { type: "storage"; url: string }
  | { type: "embedded"; dataUrl: string; mimeType: string };

/** One media file the export bundles, under `file` in the zip. */
export interface PortableFile {
  file: string;
  source: PortableSource;
}

export interface PortablePlan {
  /** The workflow with each bundled reference rewritten to its file's path in the zip. */
  workflow: SavedWorkflow;
  files: PortableFile[];
  /**
   * Stored files left as links because no upload would take them back (not a media
   * extension, e.g. a JSON sidecar): the import would fail on them.
   */
  linked: string[];
}

export interface PortablePlanOptions {
  /** The origin the workflow was opened from (for relative URLs and media-ref paths). */
  origin: string;
  /** Stored URLs and data URLs to leave as they are (e.g. files that could not be read). */
  keep?: ReadonlySet<string>;
}

/** Decoded size of a data URL's content, without decoding it. */
function embeddedBytes(dataUrl: string): number {
  const comma = dataUrl.indexOf(",");
  const body = dataUrl.length - comma - 1;
  return /;base64$/i.test(dataUrl.slice(0, comma)) ? Math.floor((body * 3) / 4) : body;
}

/**
 * The embedded media worth a file of its own: above the upload threshold (smaller data stays
 * inline, as on save) and of a type an upload accepts. Its MIME type, or null.
 */
function bundledMimeType(dataUrl: string): string | null {
  const mimeType = dataUrlMimeType(dataUrl);
  const extension = mimeType && extensionForMimeType(mimeType);
  if (!mimeType || !extension || !/;base64,/i.test(dataUrl.slice(0, 200))) return null;
  const size = embeddedBytes(dataUrl);
  if (size <= LIMITS.media.uploadThresholdBytes) return null;
  return validateUpload({ name: `embedded.${extension}`, size, type: mimeType }) ? null : mimeType;
}

/** A file name for the zip from a URL's last path segment: letters, digits, ".", "-", "_". */
function baseNameOf(url: string): string {
  let last = urlPathOf(url)?.split("/").pop() ?? "";
  try {
    last = decodeURIComponent(last);
  } catch {
    // Not percent-encoded after all: the odd characters go below.
  }
  const clean = last.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[.-]+/, "");
  return clean.slice(-80) || "media";
}

/**
 * What the export bundles: each stored file and each large embedded media value once (by
 * URL or content), named `media/NNN-name.ext`, and the workflow pointing at those names.
 * Links to other hosts stay links: they are not this server's to copy.
 */
export function planPortableExport(
  saved: SavedWorkflow,
  options: PortablePlanOptions,
): PortablePlan {
  const byKey = new Map<string, PortableFile>();
  const linked = new Set<string>();
  const fileFor = (key: string, name: string, source: PortableSource) => {
    let found = byKey.get(key);
    if (!found) {
      const number = String(byKey.size + 1).padStart(3, "0");
      found = { file: `${PORTABLE_MEDIA_FOLDER}${number}-${name}`, source };
      byKey.set(key, found);
    }
    return found.file;
  };
  const visit = (location: MediaLocation) => {
    if (location.type === "storage") {
      if (options.keep?.has(location.url)) return undefined;
      const name = baseNameOf(location.url);
      if (kindsOfExtension(fileExtension(name)).length === 0) {
        linked.add(location.url);
        return undefined;
      }
      return { type: "bundled" as const, file: fileFor(location.url, name, location) };
    }
    if (location.type === "embedded") {
      if (options.keep?.has(location.dataUrl)) return undefined;
      const mimeType = bundledMimeType(location.dataUrl);
      if (!mimeType) return undefined;
      const name = `embedded.${extensionForMimeType(mimeType)}`;
      const source = { type: "embedded" as const, dataUrl: location.dataUrl, mimeType };
      return { type: "bundled" as const, file: fileFor(location.dataUrl, name, source) };
    }
    return undefined;
  };
  const workflow = rewriteMediaReferences(saved, { origin: options.origin }, visit);
  return { workflow, files: [...byKey.values()], linked: [...linked] };
}

/** A media file of the zip once uploaded: its new URL, storage path and manifest id. */
export interface StoredPortableFile {
  url: string;
  path: string;
  id: string;
}

/**
 * The imported workflow pointing at the uploaded files: each reference to a file of the
 * zip becomes its new URL (or, in media refs and the manifest, its new path and id).
 * Strings that are not a file of the zip are left as they are.
 */
export function relocatePortableMedia(
  workflow: SavedWorkflow,
  stored: ReadonlyMap<string, StoredPortableFile>,
  origin: string,
): SavedWorkflow {
  return rewriteMediaReferences(
    workflow,
    { origin, bundled: new Set(stored.keys()) },
    (location) => {
      if (location.type !== "bundled") return undefined;
      const file = stored.get(location.file);
      return file ? { type: "stored", ...file } : undefined;
    },
  );
}
