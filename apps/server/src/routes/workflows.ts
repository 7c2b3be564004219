import {
  DELTA_SAVE_LIMITS,
  rowThumbnail,
  WORKFLOW_ERRORS,
  type WorkflowSaveResponse,
  zCreateWorkflowRequest,
  zDeltaSaveRequest,
  zForkRequest,
  zSaveId,
  zSaveWorkflowRequest,
  zWorkflowListQuery,
} from "@atelier/core";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { requireCachedUser } from "../auth/cached-session.ts";
import { deltaSave } from "../commands/workflow-storage/delta-save.ts";
import { type SaveResult, saveWorkflow } from "../commands/workflow-storage/full-save.ts";
import { WorkflowJsonCache } from "../commands/workflow-storage/json-reader.ts";
import { StagedSaves } from "../commands/workflow-storage/staged-save.ts";
import { partsOf } from "../commands/workflow-storage/stored-form.ts";
import { checkWorkflowData } from "../commands/workflow-storage/structure-checks.ts";
import {
  copyWorkflow,
  createWorkflow,
  deleteWorkflow,
  getReadableWorkflowJson,
  listWorkflows,
} from "../commands/workflow-storage/workflow-rows.ts";
import type { AppContext } from "../context.ts";
import { EncodedAnswers, sendJsonAnswer } from "../http/encoded-answers.ts";
import { HttpError, isUserFacingError } from "../http/errors.ts";
import { openEventStream } from "../http/event-stream.ts";
import {
  presentWorkflow,
  presentWorkflowJson,
  presentWorkflowSummary,
  workflowAnswerKey,
} from "../http/presenters.ts";
import { currentUser, requireUser } from "../http/session.ts";
import { shareTokenOf } from "../http/share-token.ts";
import {
  assertCanEditWorkflow,
  assertCanFollowWorkflow,
  assertCanReadWorkflow,
} from "../policy/access.ts";

const zParams = z.object({ id: z.string().min(1).max(200) });
const zSaveParams = zParams.extend({ saveId: zSaveId });
const zBatchParams = zSaveParams.extend({ index: z.coerce.number().int().min(0).max(99_999) });

const dataOf = (body: unknown) => (body as { data?: unknown } | null)?.data;

/** A save's answer: the row without the document it just sent (saves echo no megabytes). */
const saveAnswer = (
  { row, chunksWritten }: SaveResult,
  viewerId: string,
): WorkflowSaveResponse => ({
  workflow: presentWorkflow(row, null, viewerId),
  chunksWritten,
});
/** Room for a 10 MB workflow plus JSON overhead; the SPEC's own limit is checked inside. */
const WORKFLOW_BODY_LIMIT = 32 * 1024 * 1024;

export async function workflowRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const { stagedSavesPerUser: saves, stagedSaveBytesPerUser: bytes } = ctx.config.limits;
  const stagedSaves = new StagedSaves(db, ctx.store, {
    memoryBytes: ctx.config.saveStagingMemoryBytes,
    perUser: { saves, bytes },
  });

  app.get("/api/workflows", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const query = zWorkflowListQuery.parse(request.query ?? {});
    const { rows, nextOffset } = await listWorkflows(db, user.id, query);
    return { workflows: rows.map(presentWorkflowSummary), nextOffset };
  });

  app.post("/api/workflows", { bodyLimit: WORKFLOW_BODY_LIMIT }, async (request, reply) => {
    const user = await requireUser(ctx.auth, request).catch(() => {
      throw new HttpError(401, WORKFLOW_ERRORS.mustBeAuthenticatedToSave);
    });
    checkWorkflowData(dataOf(request.body));
    const body = zCreateWorkflowRequest.parse(request.body ?? {});
    const { row, data } = await createWorkflow(db, user.id, {
      ...body,
      thumbnailUrl: rowThumbnail(body),
    });
    return reply.code(201).send({ workflow: presentWorkflow(row, data, user.id) });
  });

  // Opening a workflow: the stored JSON goes out as is, never parsed and re-stringified.
  const openedWorkflows = new WorkflowJsonCache();
  // …and large ones go out compressed, each version compressed once per encoding.
  const encodedOpens = new EncodedAnswers();
  // A share link's holder reads the owner's workflow as the owner would (minus the folder).
  app.get("/api/workflows/:id", async (request, reply) => {
    const user = await currentUser(ctx.auth, request);
    const { id } = zParams.parse(request.params);
    const { readAs } = await assertCanReadWorkflow(db, user, id, shareTokenOf(request));
    const { row, json } = await getReadableWorkflowJson(db, readAs, id, openedWorkflows);
    const viewerId = user?.id ?? "";
    const answer = presentWorkflowJson(row, json, viewerId);
    return sendJsonAnswer(request, reply, encodedOpens, workflowAnswerKey(row, viewerId), answer);
  });

  /** The workflow a save may write (own, or through an edit link), else 401/404. */
  const savable = async (request: FastifyRequest, id: string) => {
    const user = await requireUser(ctx.auth, request).catch(() => {
      throw new HttpError(401, WORKFLOW_ERRORS.mustBeAuthenticatedToSave);
    });
    return { user, workflow: await assertCanEditWorkflow(db, user, id, shareTokenOf(request)) };
  };

  app.put("/api/workflows/:id", { bodyLimit: WORKFLOW_BODY_LIMIT }, async (request) => {
    const { id } = zParams.parse(request.params);
    const { user, workflow } = await savable(request, id);
    checkWorkflowData(dataOf(request.body));
    const { data, ...fields } = zSaveWorkflowRequest.parse(request.body ?? {});
    const parts = partsOf(data, id);
    const author = { authorId: user.id };
    const thumbnailUrl = rowThumbnail({ ...fields, data });
    return saveAnswer(
      await saveWorkflow(db, workflow.userId, id, { ...fields, thumbnailUrl, parts, author }),
      user.id,
    );
  });

  // A delta save: only the nodes that changed since `basedOn` (the editor's usual save).
  app.patch("/api/workflows/:id", { bodyLimit: DELTA_SAVE_LIMITS.bodyBytes }, async (request) => {
    const { id } = zParams.parse(request.params);
    const { user, workflow } = await savable(request, id);
    const body = zDeltaSaveRequest.parse(request.body ?? {});
    const author = { authorId: user.id };
    const fields = { ...body, thumbnailUrl: rowThumbnail(body) };
    return saveAnswer(await deltaSave(db, workflow.userId, id, fields, author), user.id);
  });

  // Batch saving (SPEC §9, over 2 MB): stage node batches, then commit them in one save.
  // The requests of a save take the session from the session cache.
  app.put(
    "/api/workflows/:id/saves/:saveId/batches/:index",
    { bodyLimit: WORKFLOW_BODY_LIMIT },
    async (request) => {
      const user = await requireCachedUser(ctx.auth, request);
      const { id, saveId, index } = zBatchParams.parse(request.params);
      const token = shareTokenOf(request);
      const ids = { userId: user.id, workflowId: id, saveId, via: token };
      const mayEdit = () => assertCanEditWorkflow(db, user, id, token);
      await stagedSaves.stage(ids, index, request.body, mayEdit);
      return { staged: index };
    },
  );

  app.post(
    "/api/workflows/:id/saves/:saveId/commit",
    { bodyLimit: WORKFLOW_BODY_LIMIT },
    async (request) => {
      const user = await requireCachedUser(ctx.auth, request).catch(() => {
        throw new HttpError(401, WORKFLOW_ERRORS.mustBeAuthenticatedToSave);
      });
      const { id, saveId } = zSaveParams.parse(request.params);
      const token = shareTokenOf(request);
      const ids = { userId: user.id, workflowId: id, saveId, via: token };
      const workflow = await assertCanEditWorkflow(db, user, id, token);
      const commit = stagedSaves.commit(workflow.userId, ids, request.body, async () => workflow);
      return saveAnswer(await commit, user.id);
    },
  );

  app.delete("/api/workflows/:id/saves/:saveId", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { id, saveId } = zSaveParams.parse(request.params);
    const ids = { userId: user.id, workflowId: id, saveId };
    const token = shareTokenOf(request);
    await stagedSaves.cancel(ids, () => assertCanEditWorkflow(db, user, id, token));
    return { success: true };
  });

  app.delete("/api/workflows/:id", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { id } = zParams.parse(request.params);
    await deleteWorkflow(db, ctx.store, user.id, id);
    return { success: true };
  });

  app.post("/api/workflows/fork", async (request, reply) => {
    const user = await requireUser(ctx.auth, request);
    const { sourceWorkflowId, options } = zForkRequest.parse(request.body ?? {});
    const fork = await copyWorkflow(db, user.id, sourceWorkflowId, {
      ...options,
      fork: true,
    }).catch((error) => {
      if (isUserFacingError(error)) throw error;
      request.log.error({ err: error }, "fork failed");
      throw new HttpError(500, WORKFLOW_ERRORS.fork);
    });
    return reply.code(201).send({ workflowId: fork.id });
  });

  // Server-sent events: one "updated" event per committed change of the workflow.
  app.get("/api/workflows/:id/events", async (request, reply) => {
    const user = await requireUser(ctx.auth, request);
    const { id } = zParams.parse(request.params);
    const row = await assertCanFollowWorkflow(db, user, id, shareTokenOf(request));
    const stream = openEventStream(request, reply, { user, limits: ctx.config.limits });
    stream.send("ready", { id, updated_at: row.updatedAt.toISOString() });
    stream.onClose(
      ctx.events.subscribe(id, (event) => {
        if (event.userId !== row.userId) return;
        const name = event.deleted ? "deleted" : "updated";
        stream.send(name, { id: event.id, updated_at: event.updated_at });
      }),
    );
  });
}
