import { zNameVersionRequest, zVersionParams } from "@atelier/core";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  listVersions,
  nameVersion,
  readVersion,
  restoreVersion,
} from "../commands/workflow-storage/version-history.ts";
import type { AppContext } from "../context.ts";
import { presentWorkflow } from "../http/presenters.ts";
import { requireUser } from "../http/session.ts";
import { shareTokenOf } from "../http/share-token.ts";
import { presentVersion, presentVersionEntry } from "../http/version-presenters.ts";
import { assertCanEditWorkflow } from "../policy/access.ts";

const zParams = z.object({ id: z.string().min(1).max(200) });

/**
 * A cloud workflow's version history (issue 24): whoever may save the workflow (its owner,
 * an edit link's holder) may list, open, name and restore its versions; anyone else gets 404.
 */
export async function versionRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;

  app.get("/api/workflows/:id/versions", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { id } = zParams.parse(request.params);
    await assertCanEditWorkflow(db, user, id, shareTokenOf(request));
    return { versions: (await listVersions(db, id)).map(presentVersionEntry) };
  });

  app.get("/api/workflows/:id/versions/:v", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { id, v } = zVersionParams.parse(request.params);
    await assertCanEditWorkflow(db, user, id, shareTokenOf(request));
    const { version, author, data } = await readVersion(db, id, v);
    return { version: presentVersion({ ...version, author }), data };
  });

  app.patch("/api/workflows/:id/versions/:v", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { id, v } = zVersionParams.parse(request.params);
    const { name } = zNameVersionRequest.parse(request.body ?? {});
    await assertCanEditWorkflow(db, user, id, shareTokenOf(request));
    await nameVersion(db, id, v, name);
    return { success: true };
  });

  app.post("/api/workflows/:id/versions/:v/restore", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { id, v } = zVersionParams.parse(request.params);
    const workflow = await assertCanEditWorkflow(db, user, id, shareTokenOf(request));
    const owner = { ownerId: workflow.userId, authorId: user.id };
    const restored = await restoreVersion(db, owner, id, v);
    return {
      workflow: presentWorkflow(restored.row, restored.data, user.id),
      version: restored.version,
    };
  });
}
