import {
  zCreateShareRequest,
  zPublishAppRequest,
  zShareParams,
  zShareTokenParams,
} from "@atelier/core";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  findWorkflowApp,
  getWorkflowApp,
  publishApp,
  unpublishApp,
} from "../commands/apps/publish.ts";
import { createShareLink, listShareLinks, revokeShareLink } from "../commands/shares.ts";
import type { AppContext } from "../context.ts";
import { requireUser } from "../http/session.ts";
import { presentAppSettings, presentShareLink } from "../http/share-presenters.ts";
import { assertActiveShare, assertCanShareWorkflow } from "../policy/access.ts";

const zParams = z.object({ id: z.string().min(1).max(200) });

/**
 * Sharing a workflow (issue 22): its owner's share links and published app, and what a link
 * opens. The link's own reads and writes go through the workflow and app routes, with the
 * token in `x-share-token`; the policy decides what it allows.
 */
export async function shareRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;

  app.post("/api/workflows/:id/shares", async (request, reply) => {
    const user = await requireUser(ctx.auth, request);
    const { id } = zParams.parse(request.params);
    const workflow = await assertCanShareWorkflow(db, user, id);
    const body = zCreateShareRequest.parse(request.body ?? {});
    const link = await createShareLink(db, workflow, body);
    return reply.code(201).send({ share: presentShareLink(link) });
  });

  app.get("/api/workflows/:id/shares", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { id } = zParams.parse(request.params);
    await assertCanShareWorkflow(db, user, id);
    return { shares: (await listShareLinks(db, id)).map(presentShareLink) };
  });

  app.delete("/api/workflows/:id/shares/:shareId", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { id, shareId } = zShareParams.parse(request.params);
    await assertCanShareWorkflow(db, user, id);
    await revokeShareLink(db, id, shareId);
    return { success: true };
  });

  // What a link opens: its role and workflow (name and id), and a run link's app.
  app.get("/api/shares/:token", async (request) => {
    const { token } = zShareTokenParams.parse(request.params);
    const { link, workflow } = await assertActiveShare(db, token);
    const app = link.role === "run" ? await findWorkflowApp(db, workflow.id) : null;
    return {
      role: link.role,
      workflowId: workflow.id,
      workflowName: workflow.name,
      expiresAt: link.expiresAt ? link.expiresAt.toISOString() : null,
      appSlug: app?.slug ?? null,
    };
  });

  // Publishing: the workflow's saved version becomes (or replaces) its app.
  app.put("/api/workflows/:id/app", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { id } = zParams.parse(request.params);
    const workflow = await assertCanShareWorkflow(db, user, id);
    const published = await publishApp(db, workflow, zPublishAppRequest.parse(request.body ?? {}));
    return { app: presentAppSettings(published) };
  });

  app.get("/api/workflows/:id/app", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { id } = zParams.parse(request.params);
    await assertCanShareWorkflow(db, user, id);
    return { app: presentAppSettings(await getWorkflowApp(db, id)) };
  });

  app.delete("/api/workflows/:id/app", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { id } = zParams.parse(request.params);
    await assertCanShareWorkflow(db, user, id);
    await unpublishApp(db, id);
    return { success: true };
  });
}
