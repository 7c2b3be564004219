import { INVITE_COOKIE, INVITE_HEADER, SIGNUP_MESSAGES } from "@atelier/core";
import { APIError } from "better-auth/api";
import { findUsableInvite, spendInvite } from "../commands/invites.ts";
import type { AppDb } from "../db/client.ts";
import type { Config } from "../env.ts";

/** What Better Auth's user-create hook knows of the request, if it came from one. */
interface HookContext {
  headers?: Headers | undefined;
  request?: Request | undefined;
}

/** The invitation the sign-up request carries: its header, else its cookie. */
function inviteTokenOf(context: HookContext | null): string | null {
  const headers = context?.headers ?? context?.request?.headers;
  const sent = headers?.get(INVITE_HEADER);
  if (sent) return sent;
  const cookies = headers?.get("cookie") ?? "";
  const found = cookies.split(/;\s*/).find((pair) => pair.startsWith(`${INVITE_COOKIE}=`));
  return found ? decodeURIComponent(found.slice(INVITE_COOKIE.length + 1)) : null;
}

/**
 * Why a new account may not be made (SIGNUP, ALLOWED_EMAIL_DOMAINS), or null. `spend` takes
 * the invitation, atomically, so two sign-ups cannot share one; without it the invitation
 * is only looked at (the sign-up route's early answer).
 */
export async function signUpRefusal(
  db: AppDb,
  config: Pick<Config, "signup" | "allowedEmailDomains">,
  address: string,
  token: string | null,
  { spend }: { spend: boolean },
): Promise<string | null> {
  const email = address.toLowerCase();
  const domain = email.slice(email.lastIndexOf("@") + 1);
  if (config.signup === "closed") return SIGNUP_MESSAGES.closed;
  if (config.allowedEmailDomains.length > 0 && !config.allowedEmailDomains.includes(domain))
    return SIGNUP_MESSAGES.domainNotAllowed(config.allowedEmailDomains);
  if (config.signup !== "invite") return null;
  if (!token) return SIGNUP_MESSAGES.inviteRequired;
  const invite = await findUsableInvite(db, token);
  if (!invite) return SIGNUP_MESSAGES.inviteInvalid;
  if (invite.email && invite.email !== email) return SIGNUP_MESSAGES.inviteForOther;
  if (spend && !(await spendInvite(db, token))) return SIGNUP_MESSAGES.inviteInvalid;
  return null;
}

/** The invitation a sign-up carries: its header, else its cookie. */
export function inviteTokenIn(headers: Headers | undefined): string | null {
  return inviteTokenOf({ headers });
}

/**
 * Better Auth's user-create hook: every way in — email and password, Google, GitHub, OpenID
 * Connect — creates users through it, so the rules hold for all of them. Anonymous sessions
 * are not accounts (ANONYMOUS_RUNS governs them).
 */
export async function admitNewAccount(
  db: AppDb,
  config: Pick<Config, "signup" | "allowedEmailDomains">,
  candidate: { email: string; isAnonymous?: boolean | null },
  context: HookContext | null,
): Promise<void> {
  if (candidate.isAnonymous) return;
  const refusal = await signUpRefusal(db, config, candidate.email, inviteTokenOf(context), {
    spend: true,
  });
  if (refusal) throw new APIError("FORBIDDEN", { message: refusal });
}
