import { z } from "zod";

/** Who may create an account (SIGNUP): anyone, holders of an admin's invitation, nobody. */
export const SIGNUP_MODES = ["open", "invite", "closed"] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];

/** The header an invited sign-up sends its invitation in (the cookie of that name also). */
export const INVITE_HEADER = "x-invite-token";
export const INVITE_COOKIE = "atelier_invite";

export const SIGNUP_MESSAGES = {
  closed: "Sign-up is closed on this server",
  inviteRequired: "Sign-up on this server needs an invitation",
  inviteInvalid: "This invitation is not valid any more",
  inviteForOther: "This invitation is for another address",
  domainNotAllowed: (domains: readonly string[]) =>
    `Sign-up is limited to addresses at ${domains.join(", ")}`,
  adminsOnly: "Only admins can do this",
  adminsNeedSession: "Admin actions need a signed-in session, not an API token",
} as const;

/** POST /api/admin/invites */
export const zCreateInviteRequest = z.strictObject({
  /** The address the invitation is for; absent: anyone holding it. */
  email: z.email().max(320).optional(),
  expiresInDays: z.number().int().min(1).max(365).default(7),
});
export type CreateInviteRequest = z.input<typeof zCreateInviteRequest>;

export const zInvite = z.object({
  id: z.string(),
  email: z.string().nullable(),
  token: z.string(),
  /** The page that signs up with it: `/invite/{token}`. */
  path: z.string(),
  expiresAt: z.string(),
  usedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Invite = z.infer<typeof zInvite>;

export const zInviteResponse = z.object({ invite: zInvite });
export const zInviteListResponse = z.object({ invites: z.array(zInvite) });
export const zInviteParams = z.object({ id: z.string().min(1).max(200) });
