import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { sessionCacheOf } from "../auth/auth.ts";
import { requireCachedSession } from "../auth/cached-session.ts";
import { cachedSessionUser } from "../auth/session-cache.ts";
import { cancelJob } from "../commands/cancel-job.ts";
import { listActiveJobs, listJobs } from "../commands/job-lists.ts";
import { readRun } from "../commands/runs/run-reads.ts";
import type { AppContext } from "../context.ts";
import { openEventStream } from "../http/event-stream.ts";
import { presentJobStatus } from "../http/presenters.ts";
import { presentRun } from "../http/run-presenters.ts";
import { requireSession } from "../http/session.ts";
import { JobStatusCache } from "../jobs/status-cache.ts";
import { readOwnJobStatusJson } from "../jobs/status-read.ts";
import { canCancelJob, canControlRun, canReadJob } from "../policy/access.ts";

const zRequest = z.object({ requestId: z.string().min(1).max(200) }).passthrough();
const zJobsQuery = z.object({ workflowId: z.string().max(200).optional() });
const JSON_TYPE = "application/json; charset=utf-8";

/** `zRequest`'s requestId when the body is plainly valid, else null (zod then says why). */
function plainRequestId(body: unknown): string | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const id = (body as { requestId?: unknown }).requestId;
  return typeof id === "string" && id.length >= 1 && id.length <= 200 ? id : null;
}

/** Queue status, cancel, the user's job list and a push stream of job changes. */
export async function queueRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  // Answers of unchanged jobs, dropped by the jobs' change notices (jobs/status-cache.ts).
  const statusCache = new JobStatusCache<Buffer>(
    ctx.config.jobStatusCacheTtlMs,
    (userId, onChange) => ctx.jobEvents.subscribe(userId, (event) => onChange(event.jobId)),
  );
  app.addHook("onClose", async () => statusCache.close());

  // SPEC §7: { requestId, endpoint, workflowId, nodeId, model } → the job's status. Every
  // open tab without the event stream polls this every 3 s: a recently validated session
  // comes from the session cache, and the job's answer, already as JSON, from the status
  // cache or one prepared single-row read.
  const sessions = sessionCacheOf(ctx.auth);
  const cookieName = (await ctx.auth.$context).authCookies.sessionToken.name;
  const slowStatus = async (request: FastifyRequest, reply: FastifyReply) => {
    const user = await requireCachedSession(ctx.auth, request);
    const { requestId } = zRequest.parse(request.body ?? {});
    const json = await readOwnJobStatusJson(db, user.id, requestId, statusCache);
    reply.header("content-type", JSON_TYPE);
    return json;
  };
  // Not async: a poll whose session and answer are both cached is answered without a
  // promise (each one costs the async hooks' bookkeeping); anything else takes the slow
  // path above, which makes the same checks in the same order (401, then 400, then 404).
  app.post("/api/queue/status", (request, reply) => {
    const requestId = plainRequestId(request.body);
    const user = requestId === null ? null : cachedSessionUser(sessions, request, cookieName);
    const json = user === null ? null : statusCache.lookup(requestId as string, user.id);
    if (json === null) return slowStatus(request, reply);
    reply.header("content-type", JSON_TYPE).send(json);
  });

  app.post("/api/queue/cancel", async (request) => {
    const user = await requireSession(ctx.auth, request);
    const { requestId } = zRequest.parse(request.body ?? {});
    const job = await canCancelJob(db, user, requestId);
    const cancelled = await cancelJob(
      {
        db,
        providers: async () => (await ctx.generation()).providers,
        changed: (jobId) => statusCache.invalidate(jobId),
        providerCancelFailed: (error, jobId) =>
          request.log.warn({ err: error, jobId }, "provider cancel failed"),
      },
      job,
    );
    return presentJobStatus(cancelled);
  });

  // The user's unfinished jobs and the latest finished ones: a reloaded tab picks them up.
  app.get("/api/queue/jobs", async (request) => {
    const user = await requireSession(ctx.auth, request);
    const { workflowId } = zJobsQuery.parse(request.query ?? {});
    const rows = await listJobs(db, user.id, workflowId);
    return { jobs: rows.map(presentJobStatus) };
  });

  // One stream per tab instead of per-node polling (DESIGN §7).
  app.get("/api/queue/events", async (request, reply) => {
    const user = await requireSession(ctx.auth, request);
    const stream = openEventStream(request, reply, { user, limits: ctx.config.limits });
    const active = await listActiveJobs(db, user.id);
    stream.send("ready", { jobs: active.map(presentJobStatus) });
    // Subscribed after the await: a client gone meanwhile unsubscribes at once (onClose).
    stream.onClose(
      ctx.jobEvents.subscribe(user.id, (event) => {
        void canReadJob(db, user, event.jobId).then(
          (job) => stream.send("job", presentJobStatus(job)),
          () => undefined,
        );
      }),
    );
    // Server-side runs: each change sends the run with its steps' outputs (ADR 0010).
    stream.onClose(
      ctx.runEvents.subscribe(user.id, (event) => {
        void canControlRun(db, user, event.runId)
          .then((run) => readRun(db, run))
          .then(
            (read) => stream.send("run", presentRun(read, true)),
            () => undefined,
          );
      }),
    );
  });
}
