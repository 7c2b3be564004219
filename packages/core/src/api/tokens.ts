import { z } from "zod";
import { zId } from "./common.ts";

/** POST /api/tokens — the name is checked with validateApiTokenName for its messages. */
export const zCreateApiTokenRequest = z.object({ name: z.string() });

/** 201: the only answer that ever carries the token's text. */
export const zCreateApiTokenResponse = z.object({ id: zId, token: z.string() });
export type CreateApiTokenResponse = z.infer<typeof zCreateApiTokenResponse>;

/** A token as listed: never its text nor its hash; `prefix` is its first characters. */
export const zApiToken = z.object({
  id: zId,
  name: z.string(),
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof zApiToken>;

/** GET /api/tokens — newest first. */
export const zApiTokenListResponse = z.object({ tokens: z.array(zApiToken) });
export type ApiTokenListResponse = z.infer<typeof zApiTokenListResponse>;

/** DELETE /api/tokens/{id} */
export const zApiTokenParams = z.object({ id: zId });
