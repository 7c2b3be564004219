import { ACCOUNT_MESSAGES } from "@atelier/core";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError } from "better-auth/api";
import { anonymous } from "better-auth/plugins/anonymous";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { AppDb } from "../db/client.ts";
import {
  account,
  apiTokens,
  jobs,
  session,
  user,
  verification,
  workflowMediaManifest,
} from "../db/schema.ts";
import type { Config } from "../env.ts";
import { moduleLogger } from "../log.ts";
import { passwordResetMail, verificationMail } from "../mail/account-mail.ts";
import { createMailer, type MailMessage } from "../mail/mailer.ts";
import { ApiTokenUsers } from "./api-token-users.ts";
import { SessionCache } from "./session-cache.ts";
import { admitNewAccount } from "./signup-policy.ts";

/** How long a password reset link works (seconds), mailed or issued by an admin. */
export const RESET_LINK_TTL_S = 3600;

/** Providers a user may pick, by Better Auth id, with the name users see. */
export function configuredProviders(config: Config): Map<string, string> {
  const providers = new Map<string, string>();
  if (config.google) providers.set("google", "Google");
  if (config.github) providers.set("github", "GitHub");
  if (config.oidc) providers.set(config.oidc.providerId, config.oidc.name);
  return providers;
}

/** The name shown for a provider that is not configured ("Google", "GitHub", "Okta"…). */
export function providerDisplayName(id: string): string {
  const known: Record<string, string> = {
    google: "Google",
    github: "GitHub",
    oidc: "Single sign-on",
  };
  return known[id] ?? id.charAt(0).toUpperCase() + id.slice(1);
}

const sessionCaches = new WeakMap<object, SessionCache>();
const tokenUsers = new WeakMap<object, ApiTokenUsers>();

/** The validated-session memory of an auth instance (see session-cache.ts). */
export function sessionCacheOf(auth: Auth): SessionCache {
  const cache = sessionCaches.get(auth);
  if (!cache) throw new Error("This auth instance was not made by createAuth");
  return cache;
}

/** Who the personal API tokens of an auth instance's database belong to (Bearer requests). */
export function apiTokenUsersOf(auth: Auth): ApiTokenUsers {
  const users = tokenUsers.get(auth);
  if (!users) throw new Error("This auth instance was not made by createAuth");
  return users;
}

export function createAuth(config: Config, db: AppDb) {
  const secure = config.publicUrl.startsWith("https://");
  const cache = new SessionCache(config.sessionCacheTtlMs);
  const mailer = createMailer(config.mail);
  const log = moduleLogger("mail");
  // Sent without waiting: an answer that waited for SMTP only when the address has an
  // account would tell who has one by its time. A mail that cannot go out is logged; the
  // user can ask again.
  const deliver = async (message: MailMessage) => {
    void mailer?.send(message).catch((error: Error) => {
      log.error({ error: error.message }, `Could not send "${message.subject}"`);
    });
  };
  const auth = betterAuth({
    appName: "Atelier",
    baseURL: config.publicUrl,
    basePath: "/api/auth",
    secret: config.authSecret,
    trustedOrigins: config.trustedOrigins,
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user, session, account, verification },
    }),
    // Sign-up never signs in: a new address and one that has an account get the same answer
    // (200, `{ token: null, user }`, no cookie; Better Auth hashes the password either way),
    // so sign-up does not tell who has an account. The client signs in next, which succeeds
    // for a new account and says "Invalid email or password" for someone else's.
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      autoSignIn: false,
      // Reset links by mail (SMTP_URL); without mail an admin issues them (routes/admin.ts).
      ...(mailer
        ? {
            sendResetPassword: ({ user: to, url }: { user: { email: string }; url: string }) =>
              deliver(passwordResetMail(to.email, url)),
          }
        : {}),
      resetPasswordTokenExpiresIn: RESET_LINK_TTL_S,
      // Whoever had the account before the reset loses it: its sessions and its API tokens.
      revokeSessionsOnPasswordReset: true,
      onPasswordReset: async ({ user: owner }: { user: { id: string } }) => {
        await db.delete(apiTokens).where(eq(apiTokens.userId, owner.id));
      },
    },
    // With mail, every new account is sent a verification link; a verified ADMIN_EMAILS
    // address becomes an admin then.
    ...(mailer
      ? {
          emailVerification: {
            sendOnSignUp: true,
            sendVerificationEmail: ({ user: to, url }: { user: { email: string }; url: string }) =>
              deliver(verificationMail(to.email, url)),
            // A link counts only where its account is signed in: otherwise someone who signed
            // up first with another's address would have it verified (and made admin, for an
            // ADMIN_EMAILS address) by its owner's click.
            afterEmailVerification: async (verified, request) => {
              const signedIn = request
                ? await auth.api.getSession({ headers: request.headers }).catch(() => null)
                : null;
              if (signedIn?.user.id !== verified.id) {
                await db.update(user).set({ emailVerified: false }).where(eq(user.id, verified.id));
                return;
              }
              await promoteAdmins(db, config.adminEmails);
            },
          },
        }
      : {}),
    socialProviders: {
      ...(config.google ? { google: { ...config.google } } : {}),
      ...(config.github ? { github: { ...config.github } } : {}),
    },
    plugins: [
      // Signed-out browsers get an anonymous session to run generations; signing up later
      // hands their jobs and files to the new account.
      anonymous({
        emailDomainName: "anonymous.atelier.invalid",
        onLinkAccount: ({ anonymousUser, newUser }) =>
          adoptAnonymousWork(db, anonymousUser.user.id, newUser.user.id),
      }),
      ...(config.oidc
        ? [
            genericOAuth({
              config: [
                {
                  providerId: config.oidc.providerId,
                  name: config.oidc.name,
                  clientId: config.oidc.clientId,
                  clientSecret: config.oidc.clientSecret,
                  discoveryUrl: `${config.oidc.issuer}/.well-known/openid-configuration`,
                  scopes: ["openid", "profile", "email"],
                },
              ],
            }),
          ]
        : []),
    ],
    user: {
      additionalFields: {
        isAdmin: { type: "boolean", defaultValue: false, input: false, returned: false },
      },
    },
    databaseHooks: {
      user: {
        create: {
          // Only a verified address earns the flag: anyone could sign up with an unverified one.
          before: async (candidate, context) => {
            await admitNewAccount(db, config, candidate, context as never);
            return {
              data: {
                ...candidate,
                isAdmin:
                  Boolean(candidate.emailVerified) &&
                  config.adminEmails.includes(candidate.email.toLowerCase()),
              },
            };
          },
        },
        // The session cache must not outlive what it mirrors (see session-cache.ts).
        update: { after: async (changed) => cache.forgetUser(changed.id) },
        delete: { after: async (removed) => cache.forgetUser(removed.id) },
      },
      session: {
        // A disabled account (routes/admin.ts) gets no new session, whichever way it signs in.
        create: {
          before: async (candidate) => {
            if (await isDisabled(db, candidate.userId))
              throw new APIError("FORBIDDEN", { message: ACCOUNT_MESSAGES.disabled });
          },
        },
        delete: { after: async (removed) => cache.forgetToken(removed.token) },
      },
    },
    // Our own per-route limits apply (see http/auth-routes.ts); Better Auth's in-memory one
    // would not be shared between web processes.
    rateLimit: { enabled: false },
    advanced: {
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure },
    },
    telemetry: { enabled: false },
    logger: { level: "error" },
  });
  sessionCaches.set(auth, cache);
  tokenUsers.set(auth, new ApiTokenUsers(db));
  return auth;
}

export type Auth = ReturnType<typeof createAuth>;

/** Grants the admin flag to existing ADMIN_EMAILS accounts whose address is verified. */
export async function promoteAdmins(db: AppDb, emails: readonly string[]): Promise<void> {
  if (emails.length === 0) return;
  await db
    .update(user)
    .set({ isAdmin: true })
    .where(and(inArray(sql`lower(${user.email})`, [...emails]), eq(user.emailVerified, true)));
}

/** Whether an admin disabled the account. */
export async function isDisabled(db: AppDb, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ disabledAt: user.disabledAt })
    .from(user)
    .where(eq(user.id, userId));
  return Boolean(row?.disabledAt);
}

/** The user's admin flag, read each time so a demotion takes effect at once. */
export async function readAdminFlag(db: AppDb, userId: string): Promise<boolean> {
  const [row] = await db.select({ isAdmin: user.isAdmin }).from(user).where(eq(user.id, userId));
  return row?.isAdmin ?? false;
}

/** Jobs and files an anonymous browser made move to the account it signs up or in with. */
async function adoptAnonymousWork(db: AppDb, fromUserId: string, toUserId: string) {
  await db.update(jobs).set({ userId: toUserId }).where(eq(jobs.userId, fromUserId));
  await db
    .update(workflowMediaManifest)
    .set({ userId: toUserId })
    .where(eq(workflowMediaManifest.userId, fromUserId));
}
