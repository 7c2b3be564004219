import {
  checkPortableListing,
  LIMITS,
  loadWorkflowData,
  PORTABLE_MANIFEST_FILE,
  PORTABLE_MESSAGES,
  PORTABLE_WORKFLOW_FILE,
  parseWorkflowFile,
  readPortableManifest,
  relocatePortableMedia,
  type SavedWorkflow,
  type StoredPortableFile,
  TEMPORARY_WORKFLOW_ID,
} from "@atelier/core";
import { ApiError, api } from "../../services/api.ts";
import { notify } from "../../ui/notify.ts";
import { loadingStep } from "../workspace/sync-status.ts";
import { importWorkflowFile, type OpenTarget } from "./open-workflow.ts";
import { listZip, readZipEntry, readZipText } from "./portable-zip.ts";

/*
 * Importing a portable .zip: checked whole before anything leaves the browser, its media
 * uploaded to this server, the references pointed at the new files, then opened as any
 * import is. A refused or failed zip leaves the canvas as it was. Loaded with the first
 * zip import.
 */

export const IMPORT_STEPS = {
  read: "Reading the .zip…",
  upload: (done: number, total: number) => `Uploading media ${done} of ${total}…`,
  limited: (done: number, total: number) =>
    `Uploading media ${done} of ${total}… (waiting: the server takes so many uploads a minute)`,
} as const;

/**
 * A zip can hold more files than the server takes a minute (429): each refused upload waits
 * this long and tries again, this many times, before the import gives up.
 */
const LIMITED_WAIT_MS = 15_000;
const LIMITED_TRIES = 6;

/** Uploads one file; answers its new URL, storage path and manifest id. */
export type MediaUploader = (file: Blob, fileName: string) => Promise<StoredPortableFile>;

export interface PortableImportDeps {
  /** Where this server's files are served from: this page's origin. */
  origin: string;
  upload: MediaUploader;
  step: (message: string | null) => void;
  /** Waits before an upload the server refused for its rate limit is tried again. */
  wait: (ms: number) => Promise<void>;
  /** Opens the rewritten workflow as a .json import does. */
  open: (target: OpenTarget, file: File) => Promise<void>;
}

/**
 * The imported workflow has no id until it is saved, so its media goes where a signed-out
 * or unsaved workflow's uploads go (SPEC §6), signed in or not.
 */
const uploadToTemporary: MediaUploader = (file, fileName) =>
  api.uploadMedia(file, fileName, { workflowId: TEMPORARY_WORKFLOW_ID });

const defaults = (): PortableImportDeps => ({
  origin: window.location.origin,
  upload: uploadToTemporary,
  step: loadingStep,
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  open: importWorkflowFile,
});

/** One upload, tried again while the server answers 429 (its per-minute limit). */
async function uploadWithin(
  deps: Pick<PortableImportDeps, "upload" | "step" | "wait">,
  blob: Blob,
  name: string,
  limitedStep: string,
): Promise<StoredPortableFile> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await deps.upload(blob, name);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 429) || attempt >= LIMITED_TRIES)
        throw error;
      deps.step(limitedStep);
      await deps.wait(LIMITED_WAIT_MS);
    }
  }
}

const reasonOf = (error: unknown) =>
  error instanceof ApiError && error.message ? error.message : "the upload failed";

/**
 * The zip's workflow, its media uploaded and its references rewritten, as the text of a
 * workflow file. Throws with a PORTABLE_MESSAGES (or SPEC import) message; nothing is
 * uploaded unless the whole zip passed its checks.
 */
export async function unpackPortableZip(
  zip: Uint8Array,
  deps: Pick<PortableImportDeps, "origin" | "upload" | "step" | "wait">,
): Promise<string> {
  deps.step(IMPORT_STEPS.read);
  const entries = listZip(zip);
  const layout = checkPortableListing(entries);
  const manifest = readPortableManifest(
    readZipText(zip, `${layout.root}${PORTABLE_MANIFEST_FILE}`),
    entries,
    layout,
  );
  // The workflow is checked as a .json import checks it, before any upload.
  const workflow = parseWorkflowFile(
    readZipText(zip, `${layout.root}${PORTABLE_WORKFLOW_FILE}`),
  ) as unknown as SavedWorkflow;
  loadWorkflowData(workflow);

  const stored = new Map<string, StoredPortableFile>();
  const total = manifest.media.length;
  for (const [index, media] of manifest.media.entries()) {
    deps.step(IMPORT_STEPS.upload(index + 1, total));
    if (stored.has(media.file)) continue;
    const bytes = readZipEntry(zip, `${layout.root}${media.file}`);
    const name = media.file.slice(media.file.lastIndexOf("/") + 1);
    try {
      const blob = new Blob([bytes as BlobPart], { type: media.mimeType });
      const limited = IMPORT_STEPS.limited(index + 1, total);
      stored.set(media.file, await uploadWithin(deps, blob, name, limited));
    } catch (error) {
      throw new Error(PORTABLE_MESSAGES.uploadFailed(media.file, reasonOf(error)));
    }
  }
  return JSON.stringify(relocatePortableMedia(workflow, stored, deps.origin));
}

/** Opens a portable .zip: dirty, with no id until saved, its media on this server. */
export async function importPortableZip(
  target: OpenTarget,
  file: File,
  overrides: Partial<PortableImportDeps> = {},
): Promise<void> {
  const deps = { ...defaults(), ...overrides };
  let text: string;
  try {
    if (file.size > LIMITS.storage.cloudQuotaBytes)
      throw new Error(PORTABLE_MESSAGES.tooLarge(file.size));
    deps.step(IMPORT_STEPS.read);
    text = await unpackPortableZip(new Uint8Array(await file.arrayBuffer()), deps);
  } catch (error) {
    deps.step(null);
    notify.error(error instanceof Error ? error.message : PORTABLE_MESSAGES.notZip);
    return;
  }
  deps.step(null);
  const name = file.name.replace(/\.zip$/i, "") || "workflow";
  await deps.open(target, new File([text], `${name}.json`, { type: "application/json" }));
}
