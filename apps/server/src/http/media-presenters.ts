import type { MediaRow } from "../commands/media-files.ts";

/** A stored file's public URL (an unguessable path under /api/media/file/). */
export const mediaFileUrl = (publicUrl: string, path: string) =>
  `${publicUrl}/api/media/file/${path}`;

/** `POST /api/media`'s answer. */
export function presentUpload(publicUrl: string, stored: { id: string; path: string }) {
  return { id: stored.id, url: mediaFileUrl(publicUrl, stored.path), path: stored.path };
}

/** A manifest row as `GET /api/media` lists it (SPEC §3 column names, plus its URL). */
export function presentMedia(publicUrl: string, row: MediaRow) {
  return {
    id: row.id,
    workflow_id: row.workflowId,
    node_id: row.nodeId,
    output_key: row.outputKey,
    file_path: row.filePath,
    file_size: row.fileSize,
    mime_type: row.mimeType,
    user_id: row.userId,
    uploaded_at: row.uploadedAt.toISOString(),
    url: mediaFileUrl(publicUrl, row.filePath),
  };
}
