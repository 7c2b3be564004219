import { z } from "zod";
import { zSavedWorkflow } from "../schema/workflow.ts";
import { zId } from "./common.ts";
import { zWorkflowRow } from "./workflows.ts";

/** Version history of a cloud workflow: limits and texts (issue 24). */
export const VERSION_LIMITS = {
  /** Every version is kept this long… */
  keepAllMs: 7 * 24 * 60 * 60 * 1000,
  /** …then the last of each hour up to this age, then the last of each day. */
  keepHourlyMs: 30 * 24 * 60 * 60 * 1000,
  nameMaxLength: 100,
  /** Versions a list answers at most (newest first). */
  listLimit: 200,
} as const;

export const VERSION_MESSAGES = {
  notFound: "Version not found",
} as const;

/** Nodes added, removed and changed since the version before it in the list. */
export const zVersionSummary = z.object({
  added: z.number().int().min(0),
  removed: z.number().int().min(0),
  changed: z.number().int().min(0),
});
export type VersionSummary = z.infer<typeof zVersionSummary>;

/** One saved version (`id` is its number: 1 for the first save, then 2, 3…). */
export const zVersionEntry = z.object({
  id: z.number().int().min(1),
  created_at: z.string(),
  name: z.string().optional(),
  author: z.string().optional(),
  restored_from: z.number().int().min(1).optional(),
  summary: zVersionSummary,
});
export type VersionEntry = z.infer<typeof zVersionEntry>;

/** GET /api/workflows/:id/versions — newest first. */
export const zVersionListResponse = z.object({ versions: z.array(zVersionEntry) });
export type VersionListResponse = z.infer<typeof zVersionListResponse>;

/** GET /api/workflows/:id/versions/:v — that version's workflow data. */
export const zVersionResponse = z.object({
  version: zVersionEntry.omit({ summary: true }),
  data: zSavedWorkflow,
});
export type VersionResponse = z.infer<typeof zVersionResponse>;

/** The `:v` of a version route. */
export const zVersionParam = z.coerce.number().int().min(1).max(2_147_483_647);
export const zVersionParams = z.object({ id: zId, v: zVersionParam });

/** PATCH /api/workflows/:id/versions/:v — name a version (kept until unnamed), or unname it. */
export const zNameVersionRequest = z.object({
  name: z.string().trim().min(1).max(VERSION_LIMITS.nameMaxLength).nullable(),
});

/** POST /api/workflows/:id/versions/:v/restore — the workflow as restored (a new version). */
export const zRestoreVersionResponse = z.object({ workflow: zWorkflowRow, version: z.number() });
export type RestoreVersionResponse = z.infer<typeof zRestoreVersionResponse>;
