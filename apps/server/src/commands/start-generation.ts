import {
  type AnonymousRuns,
  extensionForMimeType,
  MEDIA_INPUT_MESSAGES,
  UPLOAD_MESSAGES,
} from "@atelier/core";
import { fileTypeFromBuffer } from "file-type";
import type { AppDb } from "../db/client.ts";
import type { JobRow } from "../db/rows.ts";
import { InvalidInputError } from "../domain/errors.ts";
import type { SpendBudgets } from "../env-limits.ts";
import type { Generation } from "../jobs/generation.ts";
import { storeResultMedia } from "../jobs/store-media.ts";
import type { BlobStore } from "../storage/blob-store.ts";
import { createJob, type GenerateInput } from "./generation.ts";

/**
 * The bytes and media type of an inline input (`data:[type][;base64],…`); a type that is
 * not a media type (text/html…) or undecodable text is the client's error (400).
 */
async function decodeDataUrl(dataUrl: string): Promise<{ bytes: Buffer; contentType: string }> {
  const comma = dataUrl.indexOf(",");
  const head = dataUrl.slice(5, comma);
  const body = dataUrl.slice(comma + 1);
  let bytes: Buffer;
  try {
    bytes = /;base64$/i.test(head)
      ? Buffer.from(body, "base64")
      : Buffer.from(decodeURIComponent(body));
  } catch {
    throw new InvalidInputError(MEDIA_INPUT_MESSAGES.invalid);
  }
  const declared = (head.split(";")[0] ?? "").trim().toLowerCase();
  // Browsers label files of types they do not know (.glb) as octet-stream: sniff those.
  const contentType =
    declared && declared !== "application/octet-stream"
      ? declared
      : ((await fileTypeFromBuffer(bytes))?.mime ?? declared);
  if (!extensionForMimeType(contentType))
    throw new InvalidInputError(UPLOAD_MESSAGES.typeNotAllowed(contentType || "unknown"));
  return { bytes, contentType };
}

export interface StartGenerationDeps {
  db: AppDb;
  store: BlobStore;
  publicUrl: string;
  generation: Generation;
  /** Called with the size of each inline input before it is stored (a budget may refuse). */
  beforeStoreInline?: (bytes: number) => void;
  /** ANONYMOUS_RUNS: the providers an anonymous session's jobs may use. */
  anonymousRuns: AnonymousRuns;
  /** Spend budgets: a start that would exceed one is refused. */
  budgets: SpendBudgets;
}

/**
 * Starting a generation: checks the run and writes the job row (`createJob`; inline data
 * URLs are stored first, like uploads), then hands a new job to the engine. A repeated
 * idempotency key answers the existing job, not started again.
 */
export async function startGeneration(
  deps: StartGenerationDeps,
  userId: string,
  model: string,
  input: GenerateInput,
  /** An anonymous session's address (never from the request body). */
  clientAddress: string | null = null,
): Promise<{ job: JobRow; created: boolean }> {
  const { generation } = deps;
  const sink = {
    db: deps.db,
    store: deps.store,
    fetcher: generation.fetcher,
    publicUrl: deps.publicUrl,
  };
  const storeInline = async (dataUrl: string, port: string) => {
    const { bytes, contentType } = await decodeDataUrl(dataUrl);
    deps.beforeStoreInline?.(bytes.byteLength);
    const owner = { userId, workflowId: input.workflowId ?? null, nodeId: input.nodeId };
    const [stored] = await storeResultMedia(sink, owner, [{ output: port, bytes, contentType }]);
    if (!stored) throw new InvalidInputError("Invalid media data: must be URL or base64 data URL");
    return stored.url;
  };
  const { job, created } = await createJob(
    deps.db,
    generation.providers,
    userId,
    model,
    input,
    deps.publicUrl,
    storeInline,
    deps.anonymousRuns,
    deps.budgets,
    clientAddress,
  );
  if (created) await generation.engine.start(job);
  return { job, created };
}
