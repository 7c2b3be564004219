import {
  ALLOWED_MIME_TYPES,
  fileExtension,
  kindsOfExtension,
  LIMITS,
  UPLOAD_MESSAGES,
  validateUpload,
} from "@atelier/core";
import sharp from "sharp";
import type { AppDb } from "../db/client.ts";
import { InvalidInputError, TooLargeError } from "../domain/errors.ts";
import type { BlobStore } from "../storage/blob-store.ts";
import { inspectUpload } from "../storage/inspect.ts";
import { mediaPath, recordMedia } from "../storage/media-manifest.ts";

const DECODABLE_IMAGES = new Set(["jpg", "jpeg", "png", "gif", "webp"]);

/** A received upload: the file as sent and the form's fields. */
export interface UploadInput {
  file: { name: string; type: string; buffer: Buffer };
  /** The storage folder (policy's answer: the user's id, or the anonymous folder). */
  owner: string;
  userId: string | null;
  workflowId: string;
  kind?: string | undefined;
  nodeId?: string | undefined;
  outputKey?: string | undefined;
}

export interface UploadDeps {
  db: AppDb;
  store: BlobStore;
  /** Called with the checked file's size just before it is stored (a budget may refuse). */
  beforeStore?: (bytes: number) => void;
}

/** What was stored: the manifest row's id and the file's path in storage. */
export interface StoredUpload {
  id: string;
  path: string;
}

/**
 * The upload use case: checks the file (core's `validateUpload`, a declared type that fits
 * the extension, the real bytes by `inspectUpload`, images decodable by sharp), stores it
 * under `{owner}/{workflowId}/…` and records it in the media manifest.
 */
export async function storeUpload(deps: UploadDeps, input: UploadInput): Promise<StoredUpload> {
  const { file, kind } = input;
  const problem = validateUpload(
    { name: file.name, size: file.buffer.length, type: file.type },
    kind,
  );
  if (problem)
    throw file.buffer.length > LIMITS.upload.maxFileBytes
      ? new TooLargeError(problem)
      : new InvalidInputError(problem);
  const extension = fileExtension(file.name);
  // A declared type must fit the extension too (a PNG sent as video/mp4 is refused).
  const declared = (file.type || "").toLowerCase().split(";")[0]?.trim() ?? "";
  const kinds = kindsOfExtension(extension);
  if (
    declared &&
    declared !== "application/octet-stream" &&
    !kinds.some((k) => ALLOWED_MIME_TYPES[k].includes(declared))
  ) {
    throw new InvalidInputError(
      UPLOAD_MESSAGES.mimeNotValidForKind(declared, kind ?? kinds[0] ?? "media"),
    );
  }
  const declaredKind = kind?.toLowerCase() === "model" ? "3d" : (kind?.toLowerCase() as never);
  const inspected = await inspectUpload(file.buffer, extension, declaredKind);
  if (DECODABLE_IMAGES.has(extension)) {
    await sharp(inspected.body, { limitInputPixels: 100_000_000 })
      .metadata()
      .catch(() => {
        throw new InvalidInputError("The image could not be read");
      });
  }

  deps.beforeStore?.(inspected.body.length);
  const path = mediaPath(input.owner, input.workflowId, extension);
  await deps.store.put(path, inspected.body, inspected.mimeType);
  const row = await recordMedia(deps.db, {
    workflowId: input.workflowId,
    userId: input.userId,
    filePath: path,
    fileSize: inspected.body.length,
    mimeType: inspected.mimeType,
    nodeId: input.nodeId ?? null,
    outputKey: input.outputKey ?? null,
  });
  return { id: row.id, path };
}
