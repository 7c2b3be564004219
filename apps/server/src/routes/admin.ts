import {
  type AdminSpend,
  type InstanceHealth,
  type Invite,
  zAdminJobParams,
  zAdminUserParams,
  zAdminUserQuery,
  zCreateInviteRequest,
  zInviteParams,
  zUpdateAccountRequest,
  zUsageQuery,
  zUserLimits,
} from "@atelier/core";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { sessionCacheOf } from "../auth/auth.ts";
import { listAccounts, setAccountDisabled } from "../commands/account-admin.ts";
import { issueResetLink } from "../commands/account-recovery.ts";
import { cancelJob } from "../commands/cancel-job.ts";
import { instanceHealth, listAllJobs } from "../commands/instance-health.ts";
import { createInvite, deleteInvite, type InviteRow, listInvites } from "../commands/invites.ts";
import { instanceSpend } from "../commands/usage.ts";
import { limitsOf, setLimits } from "../commands/user-limits.ts";
import type { AppContext } from "../context.ts";
import { jobs } from "../db/schema.ts";
import { NotFoundError } from "../domain/errors.ts";
import { requireUser } from "../http/session.ts";
import { assertIsAdmin } from "../policy/access.ts";

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function presentInvite(row: InviteRow): Invite {
  return {
    id: row.id,
    email: row.email,
    token: row.token,
    path: `/invite/${row.token}`,
    expiresAt: row.expiresAt.toISOString(),
    usedAt: iso(row.usedAt),
    createdAt: row.createdAt.toISOString(),
  };
}

/** What only admins do: invitations to sign up (SIGNUP=invite), accounts, reset links. */
export async function adminRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;

  app.post("/api/admin/invites", async (request, reply) => {
    const user = await requireUser(ctx.auth, request);
    await assertIsAdmin(db, user);
    const body = zCreateInviteRequest.parse(request.body ?? {});
    return reply.code(201).send({ invite: presentInvite(await createInvite(db, user.id, body)) });
  });

  app.get("/api/admin/invites", async (request) => {
    const user = await requireUser(ctx.auth, request);
    await assertIsAdmin(db, user);
    return { invites: (await listInvites(db)).map(presentInvite) };
  });

  app.delete("/api/admin/invites/:id", async (request) => {
    const user = await requireUser(ctx.auth, request);
    await assertIsAdmin(db, user);
    const { id } = zInviteParams.parse(request.params);
    await deleteInvite(db, id);
    return { success: true };
  });

  app.get("/api/admin/users", async (request) => {
    const user = await requireUser(ctx.auth, request);
    await assertIsAdmin(db, user);
    const { q } = zAdminUserQuery.parse(request.query ?? {});
    return { users: await listAccounts(db, q) };
  });

  // Disable (sign-in, sessions and API tokens refused) or enable an account.
  app.patch("/api/admin/users/:id", async (request) => {
    const admin = await requireUser(ctx.auth, request);
    await assertIsAdmin(db, admin);
    const { id } = zAdminUserParams.parse(request.params);
    const { disabled } = zUpdateAccountRequest.parse(request.body ?? {});
    const updated = await setAccountDisabled(db, admin.id, id, disabled);
    // This process's validated sessions of the account go at once (others' within their TTL).
    sessionCacheOf(ctx.auth).forgetUser(id);
    return { user: updated };
  });

  // A one-time link that sets a new password: handed over by the admin, never mailed here.
  app.post("/api/admin/users/:id/reset-link", async (request, reply) => {
    const user = await requireUser(ctx.auth, request);
    await assertIsAdmin(db, user);
    const { id } = zAdminUserParams.parse(request.params);
    return reply.code(201).send(await issueResetLink(db, id, ctx.config.publicUrl));
  });

  // One user's own quotas and budgets (null: the instance's default).
  app.get("/api/admin/users/:id/limits", async (request) => {
    const admin = await requireUser(ctx.auth, request);
    await assertIsAdmin(db, admin);
    const { id } = zAdminUserParams.parse(request.params);
    return { limits: await limitsOf(db, id) };
  });

  app.put("/api/admin/users/:id/limits", async (request) => {
    const admin = await requireUser(ctx.auth, request);
    await assertIsAdmin(db, admin);
    const { id } = zAdminUserParams.parse(request.params);
    const limits = zUserLimits.parse(request.body ?? {});
    return { limits: await setLimits(db, id, limits) };
  });

  // How the instance is doing: queue, workers, storage, provider errors.
  app.get("/api/admin/health", async (request): Promise<InstanceHealth> => {
    const admin = await requireUser(ctx.auth, request);
    await assertIsAdmin(db, admin);
    return instanceHealth(db);
  });

  // Jobs across users, and cancelling any of them.
  app.get("/api/admin/jobs", async (request) => {
    const admin = await requireUser(ctx.auth, request);
    await assertIsAdmin(db, admin);
    return { jobs: await listAllJobs(db) };
  });

  app.post("/api/admin/jobs/:id/cancel", async (request) => {
    const admin = await requireUser(ctx.auth, request);
    await assertIsAdmin(db, admin);
    const { id } = zAdminJobParams.parse(request.params);
    const [job] = await db.select().from(jobs).where(eq(jobs.id, id));
    if (!job) throw new NotFoundError("Job not found");
    const cancelled = await cancelJob(
      {
        db,
        providers: async () => (await ctx.generation()).providers,
        providerCancelFailed: (error, jobId) =>
          request.log.warn({ err: error, jobId }, "provider cancel failed"),
      },
      job,
    );
    return { job: { id: cancelled.id, status: cancelled.status } };
  });

  // What the instance spent, by provider and by user.
  app.get("/api/admin/spend", async (request): Promise<AdminSpend> => {
    const admin = await requireUser(ctx.auth, request);
    await assertIsAdmin(db, admin);
    const { days } = zUsageQuery.parse(request.query ?? {});
    return { days, ...(await instanceSpend(db, days)) };
  });
}
