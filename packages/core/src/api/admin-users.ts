import { z } from "zod";

/** An account as an admin sees it (GET /api/admin/users). */
export const zAdminUser = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  emailVerified: z.boolean(),
  isAdmin: z.boolean(),
  /** Disabled by an admin: cannot sign in; sessions and API tokens refused. */
  disabled: z.boolean(),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof zAdminUser>;

/** GET /api/admin/users?q= — accounts (not anonymous sessions), newest first, 100 at most. */
export const zAdminUserQuery = z.object({ q: z.string().trim().max(320).optional() });
export const zAdminUserListResponse = z.object({ users: z.array(zAdminUser) });
export const zAdminUserParams = z.object({ id: z.string().min(1).max(200) });

/** POST /api/admin/users/:id/reset-link — a one-time link that sets a new password. */
export const zResetLinkResponse = z.object({ url: z.string(), expiresAt: z.string() });
export type ResetLinkResponse = z.infer<typeof zResetLinkResponse>;

/** PATCH /api/admin/users/:id — disable an account (or enable it again). */
export const zUpdateAccountRequest = z.strictObject({ disabled: z.boolean() });
export const zUpdateAccountResponse = z.object({ user: zAdminUser });

export const ACCOUNT_MESSAGES = {
  disabled: "This account is disabled. Ask an admin of this server.",
  notYourself: "You cannot disable your own account",
  notFound: "User not found",
} as const;
