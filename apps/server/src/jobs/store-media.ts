import {
  extensionForMimeType,
  LIMITS,
  PROVENANCE_SIDECAR_SUFFIX,
  type Provenance,
} from "@atelier/core";
import { fileTypeFromBuffer } from "file-type";
import type { AppDb } from "../db/client.ts";
import type { ResultMedia } from "../providers/provider.ts";
import type { SafeFetcher } from "../providers/safe-fetch.ts";
import type { BlobStore } from "../storage/blob-store.ts";
import { inspectUpload } from "../storage/inspect.ts";
import { mediaPath, recordMedia, TEMPORARY_WORKFLOW_ID } from "../storage/media-manifest.ts";
import { embedProvenance } from "../storage/provenance/embed.ts";
import type { StoredOutput } from "./outputs.ts";

export interface MediaSink {
  db: AppDb;
  store: BlobStore;
  fetcher: SafeFetcher;
  publicUrl: string;
}

/** The file extension of result bytes: the provider's declared type, else the sniffed one. */
async function extensionOf(bytes: Uint8Array, declared: string | null | undefined) {
  const fromType = declared ? extensionForMimeType(declared.split(";")[0]?.trim() ?? "") : null;
  if (fromType) return fromType;
  const sniffed = await fileTypeFromBuffer(bytes);
  if (sniffed && extensionForMimeType(sniffed.mime)) return extensionForMimeType(sniffed.mime);
  if (/^\s*<svg[\s>]/i.test(Buffer.from(bytes.slice(0, 512)).toString("utf8"))) return "svg";
  throw new Error(`Result media of type ${declared ?? "unknown"} cannot be stored`);
}

/**
 * Copies a result's media into our storage at once (provider URLs expire within the hour):
 * downloaded through the SSRF-safe fetcher, checked like an upload, stored under
 * `{userId}/{workflowId}/…` with a manifest row. A generated file carries its `provenance`
 * (inline inputs stored on a run's way in have none).
 */
export async function storeResultMedia(
  sink: MediaSink,
  job: { userId: string; workflowId: string | null; nodeId: string },
  media: readonly ResultMedia[],
  provenance: Provenance | null = null,
): Promise<StoredOutput[]> {
  const stored: StoredOutput[] = [];
  const workflowId = job.workflowId ?? TEMPORARY_WORKFLOW_ID;
  for (const item of media) {
    let bytes = item.bytes;
    let declared = item.contentType ?? null;
    if (!bytes) {
      if (!item.url) continue;
      const fetched = await sink.fetcher.fetchBytes(item.url, {
        maxBytes: LIMITS.media.maxVideoBytes,
      });
      bytes = fetched.bytes;
      declared = fetched.contentType ?? declared;
    }
    const extension = (await extensionOf(bytes, declared)) as string;
    const inspected = await inspectUpload(Buffer.from(bytes), extension);
    const path = mediaPath(job.userId, workflowId, extension);
    const { body, sidecar } = provenance
      ? embedProvenance(inspected.body, inspected.mimeType, provenance)
      : { body: inspected.body, sidecar: null };
    // The sidecar first: once the manifest row exists the file is served, and so is it.
    if (sidecar)
      await sink.store.put(`${path}${PROVENANCE_SIDECAR_SUFFIX}`, sidecar, "application/json");
    await sink.store.put(path, body, inspected.mimeType);
    await recordMedia(sink.db, {
      workflowId,
      userId: job.userId,
      filePath: path,
      fileSize: body.length,
      mimeType: inspected.mimeType,
      nodeId: job.nodeId,
      outputKey: item.output,
    });
    stored.push({
      port: item.output,
      url: `${sink.publicUrl}/api/media/file/${path}`,
      contentType: inspected.mimeType,
    });
  }
  return stored;
}
