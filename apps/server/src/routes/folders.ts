import {
  FOLDER_ERRORS,
  zCreateFolderRequest,
  zUpdateFolderRequest,
  zWorkflowIdsRequest,
} from "@atelier/core";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { copyWorkflowsTo } from "../commands/copy-workflows.ts";
import {
  createFolder,
  deleteFolder,
  listFolders,
  moveWorkflows,
  renameFolder,
  resolveFolderTarget,
} from "../commands/folders.ts";
import type { AppContext } from "../context.ts";
import { HttpError, isUserFacingError } from "../http/errors.ts";
import { requireUser } from "../http/session.ts";
import { assertCanEditWorkflows } from "../policy/access.ts";

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
    await deleteFolder(db, user.id, id).catch((error) => {
      if (isUserFacingError(error)) throw error;
      request.log.error({ err: error }, "folder delete failed");
      throw new HttpError(500, FOLDER_ERRORS.delete);
    });
    return { success: true };
  });

  // Move into a folder, or to "unfiled".
  app.put("/api/folders/:id/workflows", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { id } = zFolderParams.parse(request.params);
    const { workflowIds } = zWorkflowIdsRequest.parse(request.body ?? {});
    const moved = await moveWorkflows(db, user.id, id, workflowIds).catch((error) => {
      if (isUserFacingError(error)) throw error;
      request.log.error({ err: error }, "move failed");
      throw new HttpError(500, FOLDER_ERRORS.move);
    });
    return { moved };
  });

  // Copy into a folder, or to "unfiled": new workflows with the same content.
  app.post("/api/folders/:id/workflows", async (request, reply) => {
    const user = await requireUser(ctx.auth, request);
    const { id } = zFolderParams.parse(request.params);
    const { workflowIds } = zWorkflowIdsRequest.parse(request.body ?? {});
    const folderId = await resolveFolderTarget(db, user.id, id);
    // All or nothing: every id must be the user's before anything is copied.
    await assertCanEditWorkflows(db, user, workflowIds);
    const copies = await copyWorkflowsTo(db, ctx.store, user.id, folderId, workflowIds).catch(
      (error) => {
        if (isUserFacingError(error)) throw error;
        request.log.error({ err: error }, "copy failed");
        throw new HttpError(500, FOLDER_ERRORS.copy);
      },
    );
    return reply.code(201).send({ workflowIds: copies });
  });
}
