import { LIMITS } from "@atelier/core";
import type { SessionUser } from "./api.ts";

interface Source {
  session(): Promise<SessionUser | null>;
  adminStatus(): Promise<{ isAdmin: boolean }>;
}

/**
 * SPEC §3's auth cache (session, timestamp, isAdmin): the session is reused for 60 s and
 * the admin flag for 5 minutes, then dropped and asked again. Sign-in and sign-out clear it.
 */
/** The server, through the API client loaded after the first paint (bench F1). */
export const client = () => import("./api.ts").then((module) => module.api);
const server: Source = {
  session: async () => (await client()).session(),
  adminStatus: async () => (await client()).adminStatus(),
};

export function createAuthCache(source: Source = server, now: () => number = Date.now) {
  let session: { user: SessionUser | null; timestamp: number } | null = null;
  let admin: { userId: string; isAdmin: boolean; timestamp: number } | null = null;
  return {
    async session(): Promise<SessionUser | null> {
      if (session && now() - session.timestamp < LIMITS.timing.authSessionCacheMs)
        return session.user;
      session = { user: await source.session(), timestamp: now() };
      return session.user;
    },
    /** Signed out is never admin; the flag is cached per user. */
    async isAdmin(): Promise<boolean> {
      const user = await this.session();
      if (!user) return false;
      if (admin?.userId === user.id && now() - admin.timestamp < LIMITS.timing.adminStatusCacheMs)
        return admin.isAdmin;
      const { isAdmin } = await source.adminStatus().catch(() => ({ isAdmin: false }));
      admin = { userId: user.id, isAdmin, timestamp: now() };
      return isAdmin;
    },
    /** Remembers who just signed in (or out) without asking the server again. */
    reset(user: SessionUser | null): void {
      session = { user, timestamp: now() };
      admin = null;
    },
  };
}

export const authCache = createAuthCache();
