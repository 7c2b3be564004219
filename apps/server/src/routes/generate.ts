import {
  zGenerateRequest,
  zLumaCallbackQuery,
  zLumaReframeQuery,
  zResultFetchQuery,
} from "@atelier/core";
import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import { takeGenerationQuota } from "../commands/quotas/generation-quota.ts";
import { startGeneration } from "../commands/start-generation.ts";
import type { AppContext } from "../context.ts";
import { HttpError } from "../http/errors.ts";
import {
  presentCheckStatus,
  presentLumaStatus,
  presentModelResult,
  presentReframe,
  presentResult,
  presentStarted,
  videoUrlOf,
} from "../http/job-presenters.ts";
import { addressOf } from "../http/limits.ts";
import { requireSession } from "../http/session.ts";
import { storeAnonymous } from "../http/upload-budgets.ts";
import { canReadJob } from "../policy/access.ts";

/** Room for inputs sent inline as data URLs (stored before the job starts). */
const INLINE_BODY_LIMIT = 16 * 1024 * 1024;
const zModel = z.object({ model: z.string().min(1).max(100) });
const zCheckStatus = z.object({
  action: z.literal("check_status"),
  task_id: z.string().min(1).optional(),
  requestId: z.string().min(1).optional(),
});
const zStart = zGenerateRequest.extend({ idempotencyKey: z.string().min(8).max(200).optional() });

/** Sends a presenter's `{ code, body }`. */
const send = (reply: FastifyReply, { code, body }: { code: number; body: unknown }) =>
  reply.code(code).send(body);

/**
 * Starting generations and SPEC §7's status and result calls. Every answer is read from the
 * caller's own job rows: another user's request id is 404.
 */
export async function generateRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const limits = ctx.config.limits;
  app.post("/api/generate/:model", { bodyLimit: INLINE_BODY_LIMIT }, async (request, reply) => {
    const user = await requireSession(ctx.auth, request);
    const { model } = zModel.parse(request.params);
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (body.action === "check_status") {
      const check = zCheckStatus.parse(body);
      const id = check.task_id ?? check.requestId;
      if (!id) throw new HttpError(400, "Invalid request: task_id or requestId is required");
      return presentCheckStatus(model, await canReadJob(db, user, id));
    }
    const input = zStart.parse(body);
    // Starts only (status checks through this route are polls) take from the quotas.
    const address = addressOf(request);
    await takeGenerationQuota(db, limits, { id: user.id, isAnonymous: user.isAnonymous, address });
    const { job, created } = await startGeneration(
      {
        db,
        store: ctx.store,
        publicUrl: ctx.config.publicUrl,
        generation: await ctx.generation(),
        anonymousRuns: ctx.config.generation.anonymousRuns,
        budgets: ctx.config.limits.budgets,
        // Inline media is stored like an upload: it counts against the anonymous budget.
        beforeStoreInline: (bytes) => {
          if (user.isAnonymous)
            storeAnonymous(app, ctx.config.limits, request, `user:${user.id}`, bytes);
        },
      },
      user.id,
      model,
      input,
      user.isAnonymous ? address : null,
    );
    return reply.code(created ? 202 : 200).send(presentStarted(job));
  });

  // Result fetches (SPEC §7): GET with requestId, endpoint, workflowId and nodeId.
  app.get("/api/generate/:model", async (request, reply) => {
    const user = await requireSession(ctx.auth, request);
    const { model } = zModel.parse(request.params);
    const { requestId } = zResultFetchQuery.parse(request.query ?? {});
    const job = await canReadJob(db, user, requestId);
    return send(reply, presentModelResult(model, job));
  });

  app.get("/api/utilities/video-upscale", async (request, reply) => {
    const user = await requireSession(ctx.auth, request);
    const { requestId } = zResultFetchQuery.parse(request.query ?? {});
    const job = await canReadJob(db, user, requestId);
    return send(reply, presentResult(job, { videoUrl: videoUrlOf(job) }));
  });

  app.get("/api/utilities/luma-reframe", async (request) => {
    const user = await requireSession(ctx.auth, request);
    const { requestId } = zLumaReframeQuery.parse(request.query ?? {});
    return presentReframe(await canReadJob(db, user, requestId));
  });

  app.get("/api/callbacks/luma", async (request) => {
    const user = await requireSession(ctx.auth, request);
    const { requestId } = zLumaCallbackQuery.parse(request.query ?? {});
    return presentLumaStatus(await canReadJob(db, user, requestId));
  });
}
