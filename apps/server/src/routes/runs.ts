import {
  RUN_LIMITS,
  zQueueState,
  zRunListQuery,
  zRunMoveRequest,
  zRunRequest,
  zRunRetryRequest,
} from "@atelier/core";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { cancelJob } from "../commands/cancel-job.ts";
import { takeGenerationQuota } from "../commands/quotas/generation-quota.ts";
import { assertRunAffordable, runBudgetDeps } from "../commands/quotas/run-budget.ts";
import {
  cancelAllRuns,
  cancelRun,
  moveRun,
  retryRun,
  setQueuePaused,
} from "../commands/runs/control.ts";
import { createRun } from "../commands/runs/create-run.ts";
import { listWorkflowRuns, readQueue, readRun } from "../commands/runs/run-reads.ts";
import type { AppContext } from "../context.ts";
import { addressOf } from "../http/limits.ts";
import { presentRun } from "../http/run-presenters.ts";
import { requireSession } from "../http/session.ts";
import { assertCanRunWorkflow, canControlRun } from "../policy/access.ts";

const zParams = z.object({ id: z.string().min(1).max(200) });
const RUN_BODY_LIMIT = 16 * 1024 * 1024;

/** Server-side runs (ADR 0010): start, read, control, and the user's queue. */
export async function runRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const limits = ctx.config.limits;
  const controls = {
    db,
    cancelJob: async (job: Parameters<typeof cancelJob>[1]) =>
      cancelJob({ db, providers: async () => (await ctx.generation()).providers }, job),
  };
  const kick = async (userId: string) => (await ctx.runs()).kick(userId);
  const runBudget = runBudgetDeps(ctx);

  app.post("/api/runs", { bodyLimit: RUN_BODY_LIMIT }, async (request, reply) => {
    const user = await requireSession(ctx.auth, request);
    const body = zRunRequest.parse(request.body ?? {});
    const workflow = body.workflowId ? await assertCanRunWorkflow(db, user, body.workflowId) : null;
    const starter = { id: user.id, isAnonymous: user.isAnonymous, address: addressOf(request) };
    await takeGenerationQuota(db, limits, starter, { run: true });
    const address = user.isAnonymous ? starter.address : null;
    const run = await createRun(
      db,
      user.id,
      body,
      workflow,
      undefined,
      (plan) => assertRunAffordable(runBudget, user.id, plan, address),
      address,
    );
    await kick(user.id);
    return reply.code(202).send({ run: presentRun(await readRun(db, run), false) });
  });

  // The queue panel: my active runs in order, and whether my queue is paused.
  app.get("/api/runs", async (request) => {
    const user = await requireSession(ctx.auth, request);
    const queue = await readQueue(db, user.id);
    return { paused: queue.paused, runs: queue.runs.map((read) => presentRun(read, false)) };
  });

  app.get("/api/runs/:id", async (request) => {
    const user = await requireSession(ctx.auth, request);
    const { id } = zParams.parse(request.params);
    const run = await canControlRun(db, user, id);
    return { run: presentRun(await readRun(db, run), true) };
  });

  app.post("/api/runs/:id/cancel", async (request) => {
    const user = await requireSession(ctx.auth, request);
    const { id } = zParams.parse(request.params);
    const run = await canControlRun(db, user, id);
    await cancelRun(controls, run);
    await kick(user.id);
    return { run: presentRun(await readRun(db, await canControlRun(db, user, id)), true) };
  });

  app.post("/api/runs/:id/retry", async (request, reply) => {
    const user = await requireSession(ctx.auth, request);
    const { id } = zParams.parse(request.params);
    const { nodes } = zRunRetryRequest.parse(request.body ?? {});
    const run = await canControlRun(db, user, id);
    await retryRun(db, run, nodes);
    await kick(user.id);
    const again = await readRun(db, await canControlRun(db, user, id));
    return reply.code(202).send({ run: presentRun(again, false) });
  });

  app.post("/api/runs/:id/move", async (request) => {
    const user = await requireSession(ctx.auth, request);
    const { id } = zParams.parse(request.params);
    const { direction } = zRunMoveRequest.parse(request.body ?? {});
    await moveRun(db, await canControlRun(db, user, id), direction);
    await kick(user.id);
    const queue = await readQueue(db, user.id);
    return { paused: queue.paused, runs: queue.runs.map((read) => presentRun(read, false)) };
  });

  app.post("/api/runs/cancel-all", async (request) => {
    const user = await requireSession(ctx.auth, request);
    const cancelled = await cancelAllRuns(controls, user.id);
    return { cancelled };
  });

  app.put("/api/queue/state", async (request) => {
    const user = await requireSession(ctx.auth, request);
    const { paused } = zQueueState.parse(request.body ?? {});
    await setQueuePaused(db, user.id, paused);
    await kick(user.id);
    return { paused };
  });

  app.get("/api/workflows/:id/runs", async (request) => {
    const user = await requireSession(ctx.auth, request);
    const { id } = zParams.parse(request.params);
    const { limit, cursor } = zRunListQuery.parse(request.query ?? {});
    await assertCanRunWorkflow(db, user, id);
    const page = await listWorkflowRuns(db, user.id, id, limit ?? RUN_LIMITS.pageSize, cursor);
    return {
      runs: page.runs.map((read) => presentRun(read, false)),
      nextCursor: page.nextCursor,
    };
  });
}
