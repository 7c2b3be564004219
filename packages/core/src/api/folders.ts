import { z } from "zod";
import { LIMITS } from "../limits.ts";
import { zId } from "./common.ts";

/** Folder as the API shows it; counts are computed (SPEC §3). */
export const zFolder = z.object({
  id: zId,
  name: z.string(),
  workflow_count: z.number().int().min(0),
  last_workflow_modified: z.string().nullable(),
});
export type Folder = z.infer<typeof zFolder>;

/** GET /api/folders */
export const zFolderListResponse = z.object({ folders: z.array(zFolder) });
/** POST /api/folders — the name is checked with validateFolderName for SPEC's messages. */
export const zCreateFolderRequest = z.object({ name: z.string() });
/** PATCH /api/folders/{id} */
export const zUpdateFolderRequest = z.object({ name: z.string() });
export const zFolderResponse = z.object({ folder: zFolder });

/** The path segment that means "no folder". */
export const UNFILED = "unfiled";

/** The most workflows one move or copy names: the most the workflow list shows. */
export const MAX_WORKFLOW_IDS = LIMITS.storage.workflowListLimit;

/**
 * PUT (move) and POST (copy) /api/folders/{folderId | "unfiled"}/workflows — at most
 * MAX_WORKFLOW_IDS ids as sent; a repeated id counts once (one copy each, not one per mention).
 */
export const zWorkflowIdsRequest = z.object({
  workflowIds: z
    .array(zId)
    .min(1)
    .max(MAX_WORKFLOW_IDS)
    .transform((ids) => [...new Set(ids)]),
});
export const zMoveWorkflowsResponse = z.object({ moved: z.number().int().min(0) });
export const zCopyWorkflowsResponse = z.object({ workflowIds: z.array(zId) });

export const FOLDER_ERRORS = {
  timeout: "Request timed out",
  network: "Network error: Unable to create folder",
  create: "Failed to create folder",
  update: "Failed to update folder",
  delete: "Failed to delete folder",
  move: "Failed to move workflows",
  copy: "Failed to copy workflows",
} as const;
