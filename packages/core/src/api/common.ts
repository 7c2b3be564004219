import { z } from "zod";

/** Every error answer: `{ error }` with the SPEC's text. */
export const zErrorBody = z.object({ error: z.string() });
export type ErrorBody = z.infer<typeof zErrorBody>;

export const zId = z.string().min(1).max(200);

export const zHealthResponse = z.object({
  ok: z.boolean(),
  db: z.boolean(),
  queue: z.boolean().optional(),
  storage: z.boolean(),
});
export type HealthResponse = z.infer<typeof zHealthResponse>;

/** GET /api/auth/admin-status */
export const zAdminStatusResponse = z.object({ isAdmin: z.boolean() });
export type AdminStatusResponse = z.infer<typeof zAdminStatusResponse>;

/** DELETE answers and other acknowledgements. */
export const zSuccessResponse = z.object({ success: z.literal(true) });
