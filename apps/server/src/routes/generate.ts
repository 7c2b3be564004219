import {
  extensionForMimeType,
  MEDIA_INPUT_MESSAGES,
  UPLOAD_MESSAGES,
  zGenerateRequest,
  zLumaCallbackQuery,
  zLumaReframeQuery,
  zResultFetchQuery,
} from "@atelier/core";
import type { FastifyInstance, FastifyReply } from "fastify";
import { fileTypeFromBuffer } from "file-type";
import { z } from "zod";
import { createJob, getOwnJob, type JobRow } from "../commands/generation.ts";
import type { AppContext } from "../context.ts";
import { HttpError } from "../http/errors.ts";
import { addressOf, keyedRateLimit } from "../http/limits.ts";
import { requireSession } from "../http/session.ts";
import { storeAnonymous } from "../http/upload-budgets.ts";
import { storeResultMedia } from "../jobs/store-media.ts";

/** Room for inputs sent inline as data URLs (stored before the job starts). */
const INLINE_BODY_LIMIT = 16 * 1024 * 1024;
const zModel = z.object({ model: z.string().min(1).max(100) });
const zCheckStatus = z.object({
  action: z.literal("check_status"),
  task_id: z.string().min(1).optional(),
  requestId: z.string().min(1).optional(),
});
const zStart = zGenerateRequest.extend({ idempotencyKey: z.string().min(8).max(200).optional() });

/** Runway's task states for our job states (SPEC §7's runway check_status answer). */
const RUNWAY_STATUS: Record<string, string> = {
  IN_QUEUE: "PENDING",
  IN_PROGRESS: "RUNNING",
  COMPLETED: "SUCCEEDED",
  FAILED: "FAILED",
  CANCELLED: "CANCELLED",
};

const mediaUrl = (job: JobRow, ...keys: string[]) => {
  for (const key of keys) {
    const value = job.outputs?.[key];
    if (typeof value === "string") return value;
  }
  return null;
};
const videoUrlOf = (job: JobRow) =>
  mediaUrl(job, "videoUrl", "upscaledVideo", "modifiedVideo", "processedVideo", "mergedVideo");

/**
 * The bytes and media type of an inline input (`data:[type][;base64],…`); a type that is
 * not a media type (text/html…) or undecodable text is the client's error (400).
 */
async function decodeDataUrl(dataUrl: string): Promise<{ bytes: Buffer; contentType: string }> {
  const comma = dataUrl.indexOf(",");
  const head = dataUrl.slice(5, comma);
  const body = dataUrl.slice(comma + 1);
  let bytes: Buffer;
  try {
    bytes = /;base64$/i.test(head)
      ? Buffer.from(body, "base64")
      : Buffer.from(decodeURIComponent(body));
  } catch {
    throw new HttpError(400, MEDIA_INPUT_MESSAGES.invalid);
  }
  const declared = (head.split(";")[0] ?? "").trim().toLowerCase();
  // Browsers label files of types they do not know (.glb) as octet-stream: sniff those.
  const contentType =
    declared && declared !== "application/octet-stream"
      ? declared
      : ((await fileTypeFromBuffer(bytes))?.mime ?? declared);
  if (!extensionForMimeType(contentType))
    throw new HttpError(400, UPLOAD_MESSAGES.typeNotAllowed(contentType || "unknown"));
  return { bytes, contentType };
}

/** Answers a result fetch: 200 with the media once the job completed, 202 with its status before. */
function resultAnswer(reply: FastifyReply, job: JobRow, body: Record<string, unknown>) {
  if (job.status !== "COMPLETED")
    return reply.code(202).send({ status: job.status, error: job.error, ...body });
  return reply.send({ status: job.status, ...body });
}

/**
 * Starting generations and SPEC §7's status and result calls. Every answer is read from the
 * caller's own job rows: another user's request id is 404.
 */
export async function generateRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const limits = ctx.config.limits;
  // Starts only (status checks through this route are polls): per session, and for
  // anonymous sessions — free to make — per address as well.
  const perSession = keyedRateLimit(app, {
    max: limits.generationsPerMinute,
    timeWindowMs: 60_000,
    limit: `Too many generations: at most ${limits.generationsPerMinute} a minute per user`,
  });
  const anonymousPerAddress = keyedRateLimit(app, {
    max: limits.anonymousGenerationsPerMinutePerAddress,
    timeWindowMs: 60_000,
    limit: `Too many generations from this address: at most ${limits.anonymousGenerationsPerMinutePerAddress} a minute for anonymous sessions (sign in to run more)`,
  });

  app.post("/api/generate/:model", { bodyLimit: INLINE_BODY_LIMIT }, async (request, reply) => {
    const user = await requireSession(ctx.auth, request);
    const { model } = zModel.parse(request.params);
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (body.action === "check_status") {
      const check = zCheckStatus.parse(body);
      const id = check.task_id ?? check.requestId;
      if (!id) throw new HttpError(400, "Invalid request: task_id or requestId is required");
      const job = await getOwnJob(db, user.id, id);
      const videoUrl = videoUrlOf(job);
      if (model.startsWith("runway"))
        return {
          status: RUNWAY_STATUS[job.status],
          output: videoUrl ? [videoUrl] : [],
          progress: job.progress === null ? null : job.progress / 100,
          error: job.error,
        };
      return {
        done: job.status === "COMPLETED" || job.status === "FAILED" || job.status === "CANCELLED",
        status: job.status,
        videoUrl,
        error: job.error,
      };
    }
    const input = zStart.parse(body);
    await perSession(request, user.id);
    if (user.isAnonymous) await anonymousPerAddress(request, addressOf(request));
    const generation = await ctx.generation();
    const sink = {
      db,
      store: ctx.store,
      fetcher: generation.fetcher,
      publicUrl: ctx.config.publicUrl,
    };
    const storeInline = async (dataUrl: string, port: string) => {
      const { bytes, contentType } = await decodeDataUrl(dataUrl);
      // Inline media is stored like an upload: it counts against the anonymous budget.
      if (user.isAnonymous)
        storeAnonymous(app, ctx.config.limits, request, `user:${user.id}`, bytes.byteLength);
      const owner = { userId: user.id, workflowId: input.workflowId ?? null, nodeId: input.nodeId };
      const [stored] = await storeResultMedia(sink, owner, [{ output: port, bytes, contentType }]);
      if (!stored) throw new HttpError(400, "Invalid media data: must be URL or base64 data URL");
      return stored.url;
    };
    const { job, created } = await createJob(
      db,
      generation.providers,
      user.id,
      model,
      input,
      ctx.config.publicUrl,
      storeInline,
    );
    if (created) await generation.engine.start(job);
    return reply
      .code(created ? 202 : 200)
      .send({ requestId: job.id, endpoint: job.endpoint, status: job.status });
  });

  // Result fetches (SPEC §7): GET with requestId, endpoint, workflowId and nodeId.
  app.get("/api/generate/:model", async (request, reply) => {
    const user = await requireSession(ctx.auth, request);
    const { model } = zModel.parse(request.params);
    const { requestId } = zResultFetchQuery.parse(request.query ?? {});
    const job = await getOwnJob(db, user.id, requestId);
    if (model === "google-flash") {
      const images = Array.isArray(job.outputs?.images)
        ? (job.outputs.images as string[])
        : [mediaUrl(job, "imageUrl")].filter((url): url is string => Boolean(url));
      return resultAnswer(reply, job, {
        images,
        metadata: { model: job.model, endpoint: job.endpoint },
      });
    }
    return resultAnswer(reply, job, { videoUrl: videoUrlOf(job) });
  });

  app.get("/api/utilities/video-upscale", async (request, reply) => {
    const user = await requireSession(ctx.auth, request);
    const { requestId } = zResultFetchQuery.parse(request.query ?? {});
    const job = await getOwnJob(db, user.id, requestId);
    return resultAnswer(reply, job, { videoUrl: videoUrlOf(job) });
  });

  app.get("/api/utilities/luma-reframe", async (request) => {
    const user = await requireSession(ctx.auth, request);
    const { requestId } = zLumaReframeQuery.parse(request.query ?? {});
    const job = await getOwnJob(db, user.id, requestId);
    return {
      status: job.status,
      mediaUrl: videoUrlOf(job) ?? mediaUrl(job, "imageUrl"),
      error: job.error,
    };
  });

  app.get("/api/callbacks/luma", async (request) => {
    const user = await requireSession(ctx.auth, request);
    const { requestId } = zLumaCallbackQuery.parse(request.query ?? {});
    const job = await getOwnJob(db, user.id, requestId);
    return { status: job.status, videoUrl: videoUrlOf(job), error: job.error };
  });
}
