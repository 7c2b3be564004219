import { LIMITS } from "../limits.ts";

export const MEDIA_KINDS = ["image", "video", "audio", "3d"] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** SPEC §5: allowed extensions per kind. */
export const ALLOWED_EXTENSIONS: Record<MediaKind, readonly string[]> = {
  image: ["jpg", "jpeg", "png", "gif", "webp", "svg", "bmp"],
  video: ["mp4", "webm", "ogg", "mpeg", "mpg", "mov", "avi"],
  audio: ["mp3", "wav", "webm", "ogg", "m4a", "flac"],
  "3d": ["glb", "gltf"],
};

/** MIME types allowed per kind, including the common aliases browsers report. */
export const ALLOWED_MIME_TYPES: Record<MediaKind, readonly string[]> = {
  image: [
    "image/jpeg",
    "image/jpg",
    "image/png",
    "image/gif",
    "image/webp",
    "image/svg+xml",
    "image/bmp",
    "image/x-ms-bmp",
  ],
  video: [
    "video/mp4",
    "video/webm",
    "video/ogg",
    "video/mpeg",
    "video/quicktime",
    "video/x-msvideo",
    "video/avi",
  ],
  audio: [
    "audio/mpeg",
    "audio/mp3",
    "audio/wav",
    "audio/x-wav",
    "audio/wave",
    "audio/webm",
    "audio/ogg",
    "audio/mp4",
    "audio/x-m4a",
    "audio/m4a",
    "audio/aac",
    "audio/flac",
    "audio/x-flac",
  ],
  "3d": ["model/gltf-binary", "model/gltf+json", "application/octet-stream"],
};

const ALL_EXTENSIONS = [...new Set(Object.values(ALLOWED_EXTENSIONS).flat())];
const ALL_MIME_TYPES = new Set(Object.values(ALLOWED_MIME_TYPES).flat());

export const UPLOAD_MESSAGES = {
  tooLarge: "File size exceeds maximum allowed size of 50MB",
  extensionNotAllowed: (extension: string) =>
    `File extension "${extension}" is not allowed. Allowed extensions: ${ALL_EXTENSIONS.join(", ")}`,
  typeNotAllowed: (type: string) =>
    `File type "${type}" is not allowed. Allowed types: images, videos, audio, 3D models`,
  extensionNotValidForKind: (extension: string, kind: MediaKind, label: string = kind) =>
    `File extension "${extension}" is not valid for ${label}. Expected: ${ALLOWED_EXTENSIONS[kind].join(", ")}`,
  mimeNotValidForKind: (type: string, label: string) =>
    `MIME type "${type}" is not valid for ${label}`,
} as const;

export interface UploadCandidate {
  name: string;
  size: number;
  /** The declared MIME type; browsers give "" for types they do not know (e.g. .glb). */
  type: string;
}

/** The lower-case extension after the last dot, or "" when there is none. */
export function fileExtension(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

/** Accepts "3D" and "model" for 3D and any letter case; an unknown kind counts as none. */
function normalizeKind(kind: string): MediaKind | undefined {
  const lower = kind.toLowerCase();
  const normalized = lower === "model" ? "3d" : lower;
  return (MEDIA_KINDS as readonly string[]).includes(normalized)
    ? (normalized as MediaKind)
    : undefined;
}

/** The kinds an extension can belong to (webm and ogg are both video and audio). */
export function kindsOfExtension(extension: string): MediaKind[] {
  return MEDIA_KINDS.filter((kind) => ALLOWED_EXTENSIONS[kind].includes(extension.toLowerCase()));
}

/**
 * Checks size, extension and MIME type of an upload (SPEC §5), and when a kind is declared,
 * that both match it. Returns null when the file is acceptable, else the SPEC message.
 */
export function validateUpload(file: UploadCandidate, declaredKind?: string): string | null {
  const kind = declaredKind ? normalizeKind(declaredKind) : undefined;
  if (file.size > LIMITS.upload.maxFileBytes) return UPLOAD_MESSAGES.tooLarge;
  const extension = fileExtension(file.name);
  if (!ALL_EXTENSIONS.includes(extension)) return UPLOAD_MESSAGES.extensionNotAllowed(extension);
  const type = (file.type || "application/octet-stream").toLowerCase().split(";")[0]?.trim() ?? "";
  if (!ALL_MIME_TYPES.has(type)) return UPLOAD_MESSAGES.typeNotAllowed(type);
  if (kind && declaredKind) {
    // Messages name the kind as the caller wrote it.
    if (!ALLOWED_EXTENSIONS[kind].includes(extension)) {
      return UPLOAD_MESSAGES.extensionNotValidForKind(extension, kind, declaredKind);
    }
    if (!ALLOWED_MIME_TYPES[kind].includes(type)) {
      return UPLOAD_MESSAGES.mimeNotValidForKind(type, declaredKind);
    }
  }
  return null;
}

const EXTENSION_OF_MIME: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/jpg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/svg+xml": "svg",
  "image/bmp": "bmp",
  "video/mp4": "mp4",
  "video/webm": "webm",
  "video/ogg": "ogg",
  "video/mpeg": "mpeg",
  "video/quicktime": "mov",
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/wave": "wav",
  "audio/webm": "webm",
  "audio/ogg": "ogg",
  "audio/mp4": "m4a",
  "audio/x-m4a": "m4a",
  "audio/flac": "flac",
  "model/gltf-binary": "glb",
  "model/gltf+json": "gltf",
};

/** The file extension to upload embedded media of this MIME type under, or null if none is allowed. */
export function extensionForMimeType(mimeType: string): string | null {
  return EXTENSION_OF_MIME[mimeType.toLowerCase()] ?? null;
}
