import { z } from "zod";
import { MEDIA_KINDS } from "../validation/upload.ts";
import { zId } from "./common.ts";

/** POST /api/media (multipart: file, workflowId, optional kind) */
export const zMediaUploadFields = z.object({
  workflowId: zId,
  kind: z.enum(MEDIA_KINDS).optional(),
});
export const zMediaUploadResponse = z.object({ id: zId, url: z.string(), path: z.string() });
export type MediaUploadResponse = z.infer<typeof zMediaUploadResponse>;
