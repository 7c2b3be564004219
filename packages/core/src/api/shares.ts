import { z } from "zod";
import { zId } from "./common.ts";
import { SHARE_ROLES } from "./constants.ts";

/** A share link's token: 32 url-safe characters. */
export const zShareToken = z.string().regex(/^[A-Za-z0-9_-]{32,64}$/);

/** POST /api/workflows/{id}/shares */
export const zCreateShareRequest = z.strictObject({
  role: z.enum(SHARE_ROLES),
  /** ISO time; absent or null: never expires. */
  expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
});
export type CreateShareRequest = z.infer<typeof zCreateShareRequest>;

/** A link as its owner sees it (the owner may copy it again from the Share dialog). */
export const zShareLink = z.object({
  id: zId,
  role: z.enum(SHARE_ROLES),
  token: z.string(),
  /** The page path: `/s/{token}`. */
  path: z.string(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ShareLink = z.infer<typeof zShareLink>;

export const zShareListResponse = z.object({ shares: z.array(zShareLink) });
export type ShareListResponse = z.infer<typeof zShareListResponse>;

export const zShareParams = z.object({ id: zId, shareId: zId });
/** A malformed token finds no link (404), like a revoked one. */
export const zShareTokenParams = z.object({ token: z.string().min(1).max(200) });

/** GET /api/shares/{token}: what a link opens (never the owner's other resources). */
export const zShareOpenResponse = z.object({
  role: z.enum(SHARE_ROLES),
  workflowId: zId,
  workflowName: z.string(),
  expiresAt: z.string().nullable(),
  /** For a run link: the slug of the workflow's published app, or null when none is. */
  appSlug: z.string().nullable(),
});
export type ShareOpenResponse = z.infer<typeof zShareOpenResponse>;

/** 201 of POST /api/workflows/{id}/shares */
export const zShareResponse = z.object({ share: zShareLink });
