import { z } from "zod";
import { LIMITS } from "../limits.ts";
import { zSavedEdge, zSavedNode, zSavedWorkflow } from "../schema/workflow.ts";
import { zId } from "./common.ts";
import { DELTA_SAVE_LIMITS } from "./constants.ts";
import { zThumbnailUrl } from "./thumbnails.ts";

/** A workflow row as the API returns it (SPEC §3, table workflows). */
export const zWorkflowRow = z.object({
  id: zId,
  name: z.string(),
  description: z.string().nullable(),
  data: zSavedWorkflow.nullable(),
  thumbnail_url: z.string().nullable(),
  is_public: z.boolean(),
  user_id: zId,
  folder_id: zId.nullable(),
  media_refs: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
  fork_count: z.number().int().min(0),
  forked_from: zId.nullable(),
  is_template: z.boolean(),
  is_chunked: z.boolean(),
  chunk_count: z.number().int().min(0),
  data_size_bytes: z.number().int().min(0),
});
export type WorkflowRow = z.infer<typeof zWorkflowRow>;

/** List entries leave out `data`. */
export const zWorkflowSummary = zWorkflowRow.omit({ data: true });
export type WorkflowSummary = z.infer<typeof zWorkflowSummary>;

/**
 * GET /api/workflows?folderId=&q=&sort=&offset= — own workflows, newest updated first (or by
 * name), 100 a page; `q` finds names containing it (any case). `nextOffset` asks for the
 * next page, null on the last.
 */
export const zWorkflowListQuery = z.object({
  folderId: z.string().optional(),
  q: z.string().trim().max(200).optional(),
  sort: z.enum(["modified", "name"]).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
});
export type WorkflowListQuery = z.infer<typeof zWorkflowListQuery>;
export const zWorkflowListResponse = z.object({
  workflows: z.array(zWorkflowSummary),
  nextOffset: z.number().int().nullable(),
});

/** POST /api/workflows */
export const zCreateWorkflowRequest = z.object({
  name: z.string().min(1).max(200),
  description: z.string().max(10_000).optional(),
  data: zSavedWorkflow,
  folderId: zId.nullable().optional(),
  isPublic: z.boolean().optional(),
  thumbnailUrl: zThumbnailUrl.nullable().optional(),
  mediaRefs: z.array(z.string()).optional(),
});

/** PUT /api/workflows/:id — `basedOn` is the updated_at the edit started from. */
export const zSaveWorkflowRequest = zCreateWorkflowRequest.extend({ basedOn: z.string() });

export const zWorkflowResponse = z.object({ workflow: zWorkflowRow });

/**
 * Answer to a save (PUT, batch commit, PATCH): the row without echoing the document back
 * (`data` is null), and how many chunk rows the save wrote (unchanged chunks are kept).
 */
export const zWorkflowSaveResponse = z.object({
  workflow: zWorkflowRow,
  chunksWritten: z.number().int().min(0),
});
export type WorkflowSaveResponse = z.infer<typeof zWorkflowSaveResponse>;
/**
 * Batch saving (SPEC §9: workflows over 2 MB go up in node batches of 20). Each batch is
 * staged under a save id chosen by the client; the commit assembles them and saves in one
 * transaction, so a half-sent save never replaces the previous version.
 */
export const zSaveId = z.string().regex(/^[A-Za-z0-9-]{8,64}$/, "Invalid save id");
export const zSaveBatchRequest = z.object({
  nodes: z.array(zSavedNode).max(LIMITS.chunking.nodesPerBatch),
});
/** POST /api/workflows/:id/saves/:saveId/commit — `data.nodes` stays empty: nodes come from the batches. */
export const zCommitSaveRequest = zSaveWorkflowRequest.extend({
  batches: z.number().int().min(1).max(100_000),
});

/** A saved workflow without its nodes and edges: what a delta save sends whole. */
export const zSavedWorkflowHead = zSavedWorkflow.omit({ nodes: true, edges: true });

/**
 * PATCH /api/workflows/:id — a delta save on top of `basedOn` (which must be the current
 * version, else 409): `nodes` replace the nodes of the same id in place or, new, are added
 * after the last node; `removed` nodes go; `edges`, when sent, replace all edges.
 */
export const zDeltaSaveRequest = z.strictObject({
  name: z.string().min(1).max(200),
  description: z.string().max(10_000).optional(),
  isPublic: z.boolean().optional(),
  thumbnailUrl: zThumbnailUrl.nullable().optional(),
  mediaRefs: z.array(z.string()).optional(),
  basedOn: z.string(),
  data: zSavedWorkflowHead,
  nodes: z.array(zSavedNode).max(DELTA_SAVE_LIMITS.nodes),
  removed: z.array(z.string().min(1)).max(DELTA_SAVE_LIMITS.removed),
  edges: z.array(zSavedEdge).max(DELTA_SAVE_LIMITS.edges).optional(),
});
export type DeltaSaveRequest = z.infer<typeof zDeltaSaveRequest>;

/** 409 answer: another save landed first. */
export const zSaveConflictResponse = z.object({ error: z.string(), updated_at: z.string() });

/** POST /api/workflows/fork */
export const zForkRequest = z.object({
  sourceWorkflowId: zId,
  options: z
    .object({
      name: z.string().min(1).max(200).optional(),
      folderId: zId.nullable().optional(),
      isPublic: z.boolean().optional(),
    })
    .optional(),
});
export const zForkResponse = z.object({ workflowId: zId });

/** Event on GET /api/workflows/:id/events */
export const zWorkflowChangedEvent = z.object({ id: zId, updated_at: z.string() });
