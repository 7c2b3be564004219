import { z } from "zod";
import { zId } from "./common.ts";

/**
 * Share links (issue 22): the owner hands out `/s/{token}` with a role. **view** opens the
 * canvas read-only, **run** opens the workflow's published app form, **edit** lets a signed-in
 * person open and save. A revoked or expired link is "not found" everywhere.
 */
export const SHARE_ROLES = ["view", "run", "edit"] as const;
export type ShareRole = (typeof SHARE_ROLES)[number];

export const SHARE_LIMITS = {
  /** Links one workflow may have at once. */
  perWorkflow: 50,
} as const;

/** The header a page opened from a share link sends with its workflow and app requests. */
export const SHARE_TOKEN_HEADER = "x-share-token";

export const SHARE_MESSAGES = {
  notFound: "Link not found or no longer shared",
  expiryInPast: "The expiry must be in the future",
  tooMany: `A workflow can have at most ${SHARE_LIMITS.perWorkflow} share links`,
  signInToEdit: "Sign in to edit this workflow",
  signInToRun: "Sign in to run this app",
} as const;

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
