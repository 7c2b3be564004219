import {
  ALLOWED_MIME_TYPES,
  kindsOfExtension,
  type MediaKind,
  UPLOAD_MESSAGES,
} from "@atelier/core";
import { fileTypeFromBuffer } from "file-type";
import { InvalidInputError } from "../domain/errors.ts";
import { sanitizeSvg } from "./sanitize-svg.ts";

/** The type we serve each allowed extension as, per kind where it differs. */
const CANONICAL_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  bmp: "image/bmp",
  mp4: "video/mp4",
  webm: "video/webm",
  ogg: "video/ogg",
  mpeg: "video/mpeg",
  mpg: "video/mpeg",
  mov: "video/quicktime",
  avi: "video/x-msvideo",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  m4a: "audio/mp4",
  flac: "audio/flac",
  glb: "model/gltf-binary",
  gltf: "model/gltf+json",
};

/** Containers that file-type reports under a sibling extension. */
const SAME_FORMAT: string[][] = [
  ["mp4", "m4a", "mov", "m4v", "qt", "3gp", "f4v"],
  ["ogg", "oga", "ogv", "opus", "ogx"],
  ["mpg", "mpeg", "mp2", "ps"],
  ["jpg", "jpeg"],
  ["webm", "mkv"],
];

function sameFormat(detected: string, declared: string): boolean {
  if (detected === declared) return true;
  return SAME_FORMAT.some((group) => group.includes(detected) && group.includes(declared));
}

export interface InspectedUpload {
  body: Buffer;
  mimeType: string;
}

/**
 * Checks a file's real bytes against its extension (a PNG named .mp4 is refused), and
 * returns what to store: SVG sanitized, everything with the type it will be served as.
 */
export async function inspectUpload(
  buffer: Buffer,
  extension: string,
  kind?: MediaKind,
): Promise<InspectedUpload> {
  const kinds = kind ? [kind] : kindsOfExtension(extension);
  const servedType =
    (kind === "audio" && (extension === "webm" || extension === "ogg")
      ? `audio/${extension}`
      : undefined) ??
    CANONICAL_TYPES[extension] ??
    "application/octet-stream";

  if (extension === "svg") {
    const text = buffer.toString("utf8");
    if (!/<svg[\s>]/i.test(text))
      throw new InvalidInputError(UPLOAD_MESSAGES.mimeNotValidForKind("text/plain", "image"));
    const clean = await sanitizeSvg(text);
    if (!/^<svg[\s>]/i.test(clean.trim()))
      throw new InvalidInputError("The SVG file has no drawable content");
    return { body: Buffer.from(clean, "utf8"), mimeType: "image/svg+xml" };
  }
  if (extension === "gltf") {
    try {
      const parsed = JSON.parse(buffer.toString("utf8")) as { asset?: unknown };
      if (typeof parsed.asset !== "object" || parsed.asset === null) throw new Error("no asset");
    } catch {
      throw new InvalidInputError(UPLOAD_MESSAGES.mimeNotValidForKind("text/plain", "3d"));
    }
    return { body: buffer, mimeType: "model/gltf+json" };
  }

  const detected = await fileTypeFromBuffer(buffer);
  if (!detected) throw new InvalidInputError(UPLOAD_MESSAGES.typeNotAllowed("unknown"));
  if (!sameFormat(detected.ext, extension)) {
    const allowedSomewhere = Object.values(ALLOWED_MIME_TYPES).some((types) =>
      types.includes(detected.mime),
    );
    const label = kinds[0] ?? "media";
    throw new InvalidInputError(
      allowedSomewhere
        ? UPLOAD_MESSAGES.mimeNotValidForKind(detected.mime, label)
        : UPLOAD_MESSAGES.typeNotAllowed(detected.mime),
    );
  }
  return { body: buffer, mimeType: servedType };
}
