/**
 * One walk over every media reference of a saved workflow, in each of the forms it takes:
 * URLs of our storage (`/api/media/file/…`, relative or absolute) and embedded data URLs
 * anywhere in node data, media refs in `metadata.mediaRefs`, the saved media manifest, and
 * files of a portable zip (while one is imported). Export and import both rewrite with it.
 */

import type { MediaManifestEntry, SavedNode, SavedWorkflow } from "../schema/workflow.ts";
import { isDataUrl } from "./data-url.ts";
import { formatMediaRef, parseMediaRef } from "./media-refs.ts";

/** The path every stored file is served under (SPEC §7). */
export const MEDIA_FILE_PATH = "/api/media/file/";

/** Where a reference points. */
export type MediaLocation =
  /** A stored file, by its absolute URL (relative ones are resolved against `origin`). */
  | { type: "storage"; url: string }
  | { type: "embedded"; dataUrl: string }
  /** A file inside a portable zip, by its path in the zip. */
  | { type: "bundled"; file: string };

/** What a reference becomes: a stored file, or a file inside a portable zip. */
export type MediaTarget =
  | { type: "stored"; url: string; path: string; id?: string }
  | { type: "bundled"; file: string };

export interface MediaWalkOptions {
  /** The origin relative URLs and media-ref paths belong to, e.g. "https://atelier.example". */
  origin: string;
  /** Paths of the files in a zip being imported: a string equal to one refers to that file. */
  bundled?: ReadonlySet<string>;
}

/** Answers what a reference becomes; undefined leaves it as it is. */
export type MediaVisitor = (location: MediaLocation) => MediaTarget | undefined;

const trimSlash = (origin: string) => origin.replace(/\/+$/, "");

/** The absolute URL of a stored file's path on `origin`. */
export const storageUrlOfPath = (origin: string, path: string) =>
  `${trimSlash(origin)}${MEDIA_FILE_PATH}${path}`;

/** The absolute URL when `value` is a URL of stored media (any host), else null. */
export function storageUrlOf(value: string, origin: string): string | null {
  if (value.startsWith(MEDIA_FILE_PATH)) return `${trimSlash(origin)}${value}`;
  return urlPathOf(value)?.startsWith(MEDIA_FILE_PATH) ? value : null;
}

/** The path of an absolute http(s) URL ("/" when it has none), or null. Core has no `URL`. */
export function urlPathOf(value: string): string | null {
  const match = /^https?:\/\/[^/?#\s]+(\/[^?#]*)?/i.exec(value);
  return match ? (match[1] ?? "/") : null;
}

/** The form a lone string refers to, or null when it is not media. */
function locationOfString(value: string, options: MediaWalkOptions): MediaLocation | null {
  if (isDataUrl(value)) return { type: "embedded", dataUrl: value };
  if (options.bundled?.has(value)) return { type: "bundled", file: value };
  const url = storageUrlOf(value, options.origin);
  return url ? { type: "storage", url } : null;
}

/** The form a storage path (of a media ref or manifest entry) refers to. */
function locationOfPath(path: string, options: MediaWalkOptions): MediaLocation {
  return options.bundled?.has(path)
    ? { type: "bundled", file: path }
    : { type: "storage", url: storageUrlOfPath(options.origin, path) };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const asString = (target: MediaTarget) => (target.type === "stored" ? target.url : target.file);
const asPath = (target: MediaTarget) => (target.type === "stored" ? target.path : target.file);

/** A copy of `value` with every media string replaced as `visit` says (keys are left alone). */
function walkValue(value: unknown, options: MediaWalkOptions, visit: MediaVisitor): unknown {
  if (typeof value === "string") {
    const location = locationOfString(value, options);
    const target = location && visit(location);
    return target ? asString(target) : value;
  }
  if (Array.isArray(value)) return value.map((item) => walkValue(item, options, visit));
  if (value && typeof value === "object") {
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) copy[key] = walkValue(inner, options, visit);
    return copy;
  }
  return value;
}

function walkMediaRef(ref: string, options: MediaWalkOptions, visit: MediaVisitor): string {
  const parsed = parseMediaRef(ref);
  if (!parsed) return ref;
  const target = visit(locationOfPath(parsed.path, options));
  if (!target) return ref;
  const id = target.type === "stored" && target.id ? target.id : parsed.id;
  return formatMediaRef({ ...parsed, id, path: asPath(target) });
}

function walkManifestEntry(
  entry: MediaManifestEntry,
  options: MediaWalkOptions,
  visit: MediaVisitor,
): MediaManifestEntry {
  const target = visit(locationOfPath(entry.filePath, options));
  if (!target) return entry;
  const id = target.type === "stored" && target.id ? target.id : entry.id;
  return { ...entry, id, filePath: asPath(target) };
}

/**
 * A copy of the workflow with each media reference replaced by what `visit` answers for it
 * (called once per occurrence, in document order; the workflow itself is not changed).
 * Strings inside node data count only when the whole string is the reference: a prompt that
 * mentions a URL is text, not media.
 */
export function rewriteMediaReferences(
  saved: SavedWorkflow,
  options: MediaWalkOptions,
  visit: MediaVisitor,
): SavedWorkflow {
  // An imported file is walked before the load path checks it: odd shapes are left as found.
  const nodes = saved.nodes.map((node) =>
    isRecord(node) && "data" in node
      ? { ...node, data: walkValue(node.data, options, visit) as SavedNode["data"] }
      : node,
  );
  const rewritten: SavedWorkflow = { ...saved, nodes };
  if (isRecord(saved.metadata)) {
    const metadata = { ...saved.metadata };
    if (typeof metadata.thumbnail === "string")
      metadata.thumbnail = walkValue(metadata.thumbnail, options, visit) as string;
    if (Array.isArray(metadata.mediaRefs))
      metadata.mediaRefs = metadata.mediaRefs.map((ref) => walkMediaRef(ref, options, visit));
    rewritten.metadata = metadata;
  }
  if (Array.isArray(saved.mediaManifest))
    rewritten.mediaManifest = saved.mediaManifest.map((entry) =>
      isRecord(entry) && typeof entry.filePath === "string"
        ? walkManifestEntry(entry, options, visit)
        : entry,
    );
  return rewritten;
}

/** Every media reference of the workflow, in document order (repeats included). */
export function listMediaReferences(
  saved: SavedWorkflow,
  options: MediaWalkOptions,
): MediaLocation[] {
  const found: MediaLocation[] = [];
  rewriteMediaReferences(saved, options, (location) => {
    found.push(location);
    return undefined;
  });
  return found;
}
