import {
  type EditorNode,
  LIMITS,
  type PortableFile,
  planPortableExport,
  type SavedWorkflow,
} from "@atelier/core";
import { notify } from "../../ui/notify.ts";
import type { DocumentStore } from "../document/store.ts";
import { useWorkspace } from "../workspace/store.ts";
import { loadingStep } from "../workspace/sync-status.ts";
import { type PackedMedia, packPortableZip } from "./portable-zip.ts";

/*
 * "Export as .zip (with media)": the workflow and every media file it references, so that
 * it opens with its media on another server. Loaded with the first zip export.
 */

export const EXPORT_STEPS = {
  prepare: "Preparing the export…",
  media: (done: number, total: number) => `Exporting media ${done} of ${total}…`,
  pack: "Packing the .zip…",
} as const;

export const EXPORT_MESSAGES = {
  failed: "Export failed: the .zip could not be made.",
  linksKept: (count: number) =>
    `${count} ${count === 1 ? "file" : "files"} could not be read or ${count === 1 ? "is not media" : "are not media"}: the .zip keeps ${count === 1 ? "its link" : "their links"} instead.`,
} as const;

/** A file's bytes and type as fetched, or null when it could not be read. */
export type MediaReader = (url: string) => Promise<{ bytes: Uint8Array; mimeType: string } | null>;

export interface PortableExportDeps {
  /** Where the workflow's relative links point: this page's origin. */
  origin: string;
  readMedia: MediaReader;
  /** Hands the finished zip to the user. */
  download: (zip: Blob, fileName: string) => void;
  step: (message: string | null) => void;
}

/**
 * Reads a stored file. Files are public by their unguessable path; cookies go to this
 * server only (a link to another host is fetched without them, and may be refused by CORS).
 */
export const fetchMedia: MediaReader = async (url) => {
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    if (!response.ok) return null;
    const mimeType = (response.headers.get("content-type") ?? "").split(";")[0]?.trim();
    return {
      bytes: new Uint8Array(await response.arrayBuffer()),
      mimeType: mimeType || "application/octet-stream",
    };
  } catch {
    return null;
  }
};

/** The bytes of a base64 data URL (decoded here: the page's CSP does not let fetch read data:). */
function decodeDataUrl(dataUrl: string, mimeType: string) {
  let binary: string;
  try {
    binary = atob(dataUrl.slice(dataUrl.indexOf(",") + 1));
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return { bytes, mimeType };
}

function saveFile(zip: Blob, fileName: string) {
  const url = URL.createObjectURL(zip);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const defaults = (): PortableExportDeps => ({
  origin: window.location.origin,
  readMedia: fetchMedia,
  download: saveFile,
  step: loadingStep,
});

/**
 * The zip of a saved workflow: every stored file it references fetched (three at a time,
 * with progress), large embedded media as files of their own. A file that cannot be read,
 * or that no upload would take back, stays a link (counted in `linksKept`) rather than
 * failing the whole export.
 */
export async function buildPortableZip(
  saved: SavedWorkflow,
  deps: Pick<PortableExportDeps, "origin" | "readMedia" | "step">,
  finish: (planned: SavedWorkflow) => Promise<SavedWorkflow> = async (planned) => planned,
): Promise<{ zip: Uint8Array; linksKept: number }> {
  const plan = planPortableExport(saved, { origin: deps.origin });
  const read = new Map<PortableFile, { bytes: Uint8Array; mimeType: string } | null>();
  let done = 0;
  let next = 0;
  deps.step(EXPORT_STEPS.media(0, plan.files.length));
  const worker = async () => {
    while (next < plan.files.length) {
      const file = plan.files[next++] as PortableFile;
      const { source } = file;
      read.set(
        file,
        source.type === "embedded"
          ? decodeDataUrl(source.dataUrl, source.mimeType)
          : await deps.readMedia(source.url),
      );
      deps.step(EXPORT_STEPS.media(++done, plan.files.length));
    }
  };
  const workers = Math.min(LIMITS.upload.queueConcurrency, plan.files.length);
  await Promise.all(Array.from({ length: workers }, worker));

  const unread = new Set<string>();
  for (const [file, got] of read) if (!got) unread.add(sourceKey(file));
  // Files that could not be read stay as they are (links, data): plan again without them.
  const final = unread.size
    ? planPortableExport(saved, { origin: deps.origin, keep: unread })
    : plan;
  const bySource = new Map([...read].map(([file, got]) => [sourceKey(file), got]));
  const media: PackedMedia[] = final.files.map((file) => {
    const got = bySource.get(sourceKey(file)) as { bytes: Uint8Array; mimeType: string };
    return { file: file.file, ...got };
  });
  const workflow = await finish(final.workflow);
  deps.step(EXPORT_STEPS.pack);
  const linksKept = unread.size + final.linked.length;
  return { zip: packPortableZip(workflow, media), linksKept };
}

const sourceKey = ({ source }: PortableFile) =>
  source.type === "storage" ? source.url : source.dataUrl;

/** The file name of an export: the workflow's name, safe for any file system. */
export const exportFileName = (name: string, extension: string) =>
  `${name.replace(/[^\w.-]+/g, "-") || "workflow"}.${extension}`;

/** Downloads the open workflow as a .zip with its media; progress over the canvas meanwhile. */
export async function exportPortableZip(
  documents: DocumentStore,
  overrides: Partial<PortableExportDeps> = {},
): Promise<void> {
  const deps = { ...defaults(), ...overrides };
  try {
    deps.step(EXPORT_STEPS.prepare);
    const { nodes, edges } = documents.getState();
    const { name, workflowId } = useWorkspace.getState();
    // Planned on the canvas's own nodes, then serialized as a save is: saving drops embedded
    // data over 1 MB, which the zip keeps as files.
    const draft = { nodes, edges, metadata: { name } };
    const { serializer } = await import("./serializer.ts");
    const serialize = (planned: SavedWorkflow) =>
      serializer.serialize({
        nodes: planned.nodes as unknown as EditorNode[],
        edges,
        metadata: { name, id: workflowId },
      });
    const { zip, linksKept } = await buildPortableZip(
      draft as unknown as SavedWorkflow,
      deps,
      serialize,
    );
    deps.download(
      new Blob([zip as BlobPart], { type: "application/zip" }),
      exportFileName(name, "zip"),
    );
    if (linksKept) notify.warning(EXPORT_MESSAGES.linksKept(linksKept));
  } catch (error) {
    console.error("Zip export failed", error);
    notify.error(EXPORT_MESSAGES.failed);
  } finally {
    deps.step(null);
  }
}
