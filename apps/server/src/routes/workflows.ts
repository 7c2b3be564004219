import {
  validateWorkflow,
  WORKFLOW_ERRORS,
  zCommitSaveRequest,
  zCreateWorkflowRequest,
  zForkRequest,
  zSaveBatchRequest,
  zSaveId,
  zSaveWorkflowRequest,
  zWorkflowListQuery,
} from "@atelier/core";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { dropStagedSave, readStagedNodes, stageBatch } from "../commands/staged-saves.ts";
import {
  copyWorkflow,
  createWorkflow,
  deleteWorkflow,
  getOwnWorkflowRow,
  getReadableWorkflow,
  listWorkflows,
  saveWorkflow,
} from "../commands/workflows.ts";
import type { AppContext } from "../context.ts";
import { HttpError } from "../http/errors.ts";
import { openEventStream } from "../http/event-stream.ts";
import { presentWorkflow, presentWorkflowSummary } from "../http/presenters.ts";
import { requireUser } from "../http/session.ts";

const zParams = z.object({ id: z.string().min(1).max(200) });
const zSaveParams = zParams.extend({ saveId: zSaveId });
const zBatchParams = zSaveParams.extend({ index: z.coerce.number().int().min(0).max(99_999) });

/** SPEC §5's structural check first, so broken data gets "Invalid workflow data: …". */
function checkWorkflowData(body: unknown): void {
  const data = (body as { data?: unknown } | null)?.data;
  const { valid, errors } = validateWorkflow(data);
  if (!valid) throw new HttpError(400, `Invalid workflow data: ${errors.join("; ")}`);
}
/** Room for a 10 MB workflow plus JSON overhead; the SPEC's own limit is checked inside. */
const WORKFLOW_BODY_LIMIT = 32 * 1024 * 1024;

export async function workflowRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;

  app.get("/api/workflows", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { folderId } = zWorkflowListQuery.parse(request.query ?? {});
    const rows = await listWorkflows(db, user.id, folderId);
    return { workflows: rows.map(presentWorkflowSummary) };
  });

  app.post("/api/workflows", { bodyLimit: WORKFLOW_BODY_LIMIT }, async (request, reply) => {
    const user = await requireUser(ctx.auth, request).catch(() => {
      throw new HttpError(401, WORKFLOW_ERRORS.mustBeAuthenticatedToSave);
    });
    checkWorkflowData(request.body);
    const body = zCreateWorkflowRequest.parse(request.body ?? {});
    const { row, data } = await createWorkflow(db, user.id, body);
    return reply.code(201).send({ workflow: presentWorkflow(row, data, user.id) });
  });

  app.get("/api/workflows/:id", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { id } = zParams.parse(request.params);
    const { row, data } = await getReadableWorkflow(db, user.id, id);
    return { workflow: presentWorkflow(row, data, user.id) };
  });

  app.put("/api/workflows/:id", { bodyLimit: WORKFLOW_BODY_LIMIT }, async (request) => {
    const user = await requireUser(ctx.auth, request).catch(() => {
      throw new HttpError(401, WORKFLOW_ERRORS.mustBeAuthenticatedToSave);
    });
    const { id } = zParams.parse(request.params);
    const raw = (request.body ?? {}) as Record<string, unknown>;
    checkWorkflowData(raw);
    const body = zSaveWorkflowRequest.parse(raw);
    const { row, data } = await saveWorkflow(db, user.id, id, {
      ...body,
    });
    return { workflow: presentWorkflow(row, data, user.id) };
  });

  // Batch saving (SPEC §9, over 2 MB): stage node batches, then commit them in one save.
  app.put(
    "/api/workflows/:id/saves/:saveId/batches/:index",
    { bodyLimit: WORKFLOW_BODY_LIMIT },
    async (request) => {
      const user = await requireUser(ctx.auth, request);
      const { id, saveId, index } = zBatchParams.parse(request.params);
      const { nodes } = zSaveBatchRequest.parse(request.body ?? {});
      await getOwnWorkflowRow(db, user.id, id);
      await stageBatch(ctx.store, { userId: user.id, workflowId: id, saveId }, index, nodes);
      return { staged: index };
    },
  );

  app.post(
    "/api/workflows/:id/saves/:saveId/commit",
    { bodyLimit: WORKFLOW_BODY_LIMIT },
    async (request) => {
      const user = await requireUser(ctx.auth, request).catch(() => {
        throw new HttpError(401, WORKFLOW_ERRORS.mustBeAuthenticatedToSave);
      });
      const { id, saveId } = zSaveParams.parse(request.params);
      await getOwnWorkflowRow(db, user.id, id);
      const ids = { userId: user.id, workflowId: id, saveId };
      const raw = (request.body ?? {}) as { data?: Record<string, unknown>; batches?: unknown };
      const nodes = await readStagedNodes(ctx.store, ids, Number(raw.batches) || 0);
      const whole = { ...raw, data: { ...raw.data, nodes } };
      checkWorkflowData(whole);
      const { batches: _batches, ...body } = zCommitSaveRequest.parse(whole);
      const { row, data } = await saveWorkflow(db, user.id, id, body);
      await dropStagedSave(ctx.store, ids);
      return { workflow: presentWorkflow(row, data, user.id) };
    },
  );

  app.delete("/api/workflows/:id/saves/:saveId", async (request) => {
    const user = await requireUser(ctx.auth, request);
    const { id, saveId } = zSaveParams.parse(request.params);
    await getOwnWorkflowRow(db, user.id, id);
    await dropStagedSave(ctx.store, { userId: user.id, workflowId: id, saveId });
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
      if (error instanceof HttpError) throw error;
      request.log.error({ err: error }, "fork failed");
      throw new HttpError(500, WORKFLOW_ERRORS.fork);
    });
    return reply.code(201).send({ workflowId: fork.id });
  });

  // Server-sent events: one "updated" event per committed change of the workflow.
  app.get("/api/workflows/:id/events", async (request, reply) => {
    const user = await requireUser(ctx.auth, request);
    const { id } = zParams.parse(request.params);
    const row = await getOwnWorkflowRow(db, user.id, id);
    let unsubscribe = () => {};
    const send = openEventStream(request, reply, () => unsubscribe());
    send("ready", { id, updated_at: row.updatedAt.toISOString() });
    unsubscribe = ctx.events.subscribe(id, (event) => {
      if (event.userId !== user.id) return;
      send(event.deleted ? "deleted" : "updated", { id: event.id, updated_at: event.updated_at });
    });
  });
}
