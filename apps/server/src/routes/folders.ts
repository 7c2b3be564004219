import { zCreateFolderRequest, zUpdateFolderRequest, zWorkflowIdsRequest } from "@atelier/core";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  createFolder,
  deleteFolder,
  listFolders,
  moveWorkflows,
  renameFolder,
  resolveFolderTarget,
} from "../commands/folders.ts";
import { copyWorkflow } from "../commands/workflows.ts";
import type { AppContext } from "../context.ts";
import { requireUser } from "../http/session.ts";

const zFolderParams = z.object({ id: z.string().min(1).max(200) });

/** SPEC §7 folder calls; every query is scoped to the signed-in user. */
export async function folderRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;

  app.get("/api/folders", async (request) => {
    const user = await requireUser(ctx.auth, request);
    return { folders: await listFolders(db, user.id) };
  });

  app.post("/api/folders", async (request, reply) => {
    const user = await requireUser(ctx.auth, request);
    const { name } = zCreateFolderRequest.parse(request.body ?? {});
    return reply.code(201).send({ folder: await createFolder(db, user.id, name) });
  });

  app.patch("/api/folders/:id", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { id } = zFolderParams.parse(request.params);
    const { name } = zUpdateFolderRequest.parse(request.body ?? {});
    return { folder: await renameFolder(db, user.id, id, name) };
  });

  app.delete("/api/folders/:id", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { id } = zFolderParams.parse(request.params);
    await deleteFolder(db, user.id, id);
    return { success: true };
  });

  // Move into a folder, or to "unfiled".
  app.put("/api/folders/:id/workflows", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { id } = zFolderParams.parse(request.params);
    const { workflowIds } = zWorkflowIdsRequest.parse(request.body ?? {});
    return { moved: await moveWorkflows(db, user.id, id, workflowIds) };
  });

  // Copy into a folder, or to "unfiled": new workflows with the same content.
  app.post("/api/folders/:id/workflows", async (request, reply) => {
    const user = await requireUser(ctx.auth, request);
    const { id } = zFolderParams.parse(request.params);
    const { workflowIds } = zWorkflowIdsRequest.parse(request.body ?? {});
    const folderId = await resolveFolderTarget(db, user.id, id);
    const copies: string[] = [];
    for (const workflowId of workflowIds) {
      const copy = await copyWorkflow(db, user.id, workflowId, { folderId, fork: false });
      copies.push(copy.id);
    }
    return reply.code(201).send({ workflowIds: copies });
  });
}
