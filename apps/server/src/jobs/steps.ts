import { randomUUID } from "node:crypto";
import { getNodeDefinition, LIMITS, RUN_MESSAGES } from "@atelier/core";
import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { AppDb } from "../db/client.ts";
import type { JobRow } from "../db/rows.ts";
import { jobs } from "../db/schema.ts";
import { ProviderError, type ProviderStatus } from "../providers/provider.ts";
import type { ProviderRegistry } from "../providers/registry.ts";
import { OutboundFetchError } from "../providers/safe-fetch.ts";
import { announceJobChange } from "../realtime/events.ts";
import { loadProvenance } from "../storage/provenance/record.ts";
import { firstCheckMs, nextCheckMs, pollDelayMs } from "./cadence.ts";
import { JOB_LOG_LINES, newLogLines } from "./logs.ts";
import { presentOutputs } from "./outputs.ts";
import { type MediaSink, storeResultMedia } from "./store-media.ts";

export interface StepDeps {
  db: AppDb;
  providers: ProviderRegistry;
  sink: MediaSink;
  /** Schedules the job's next step, carrying the token that allows it to run. */
  schedule(jobId: string, token: string, delayMs: number): Promise<void>;
  /**
   * Where a provider should call back for this job, when the server has a public URL. A job
   * with one is not polled, only read when the callback comes (and by a rare safety net).
   */
  webhookUrl(job: JobRow): string | null;
  /** The clock (tests drive the cadence with a fake one). */
  now?: () => number;
  log: {
    warn(object: unknown, message: string): void;
    error(object: unknown, message: string): void;
  };
}

const TERMINAL = ["COMPLETED", "FAILED", "CANCELLED"] as const;
const IN_FLIGHT = ["submitting", "submitted", "fetching"] as const;
/** Retries of one transient failure (submit never: its outcome could be a second paid job). */
const MAX_ATTEMPTS = 5;

/**
 * One step of a job, driven by pg-boss: claim the job with the step's token (a step whose
 * token is stale — a sweeper took over, or a webhook hint ran first — does nothing), do one
 * thing (submit, poll, or fetch and store the result), then schedule the next step.
 * Every write is one conditional UPDATE, so webhook and poll feed one idempotent transition.
 */
export async function runStep(
  deps: StepDeps,
  jobId: string,
  token: string,
  /** The step was started by a provider's callback (a hint), not by the schedule. */
  hinted = false,
): Promise<void> {
  const next = randomUUID();
  const now = deps.now ?? Date.now;
  const [job] = await deps.db
    .update(jobs)
    .set({ runner: next, heartbeatAt: new Date(now()) })
    .where(and(eq(jobs.id, jobId), eq(jobs.runner, token), notInArray(jobs.status, [...TERMINAL])))
    .returning();
  if (!job) return;
  const provider = deps.providers.get(job.provider);
  const again = (delayMs: number) => deps.schedule(job.id, next, delayMs);
  if (!provider) return finish(deps, job, { status: "FAILED", error: RUN_MESSAGES.failed });
  if (now() - job.createdAt.getTime() > LIMITS.timing.pollMaxMs) {
    if (job.providerRequestId)
      await provider.cancel(job.endpoint, job.providerRequestId).catch(() => undefined);
    return finish(deps, job, { status: "FAILED", error: RUN_MESSAGES.timedOut });
  }
  try {
    switch (job.step) {
      case "queued":
        return await submit(deps, job, next, again);
      case "submitting":
        // A worker died mid-submit: the provider may hold a paid job we cannot see.
        if (job.provider === "local") {
          await update(deps, job, { step: "queued" });
          return await again(0);
        }
        deps.log.warn({ jobId: job.id }, "submit outcome unknown after a restart");
        return finish(deps, job, {
          status: "FAILED",
          error: RUN_MESSAGES.failed,
          log: "The request's outcome was unknown after a restart; it was not sent again.",
        });
      case "submitted":
        return await poll(deps, job, again, hinted);
      case "fetching":
        return await fetchResult(deps, job);
      default:
        return;
    }
  } catch (error) {
    return handleFailure(deps, job, error, again);
  }
}

async function submit(
  deps: StepDeps,
  job: JobRow,
  token: string,
  again: (ms: number) => Promise<void>,
) {
  const provider = deps.providers.get(job.provider);
  if (!provider) return;
  // Per-provider concurrency: beyond the limit the job waits in the queue.
  const [busy] = await deps.db
    .select({ count: sql<number>`count(*)::int` })
    .from(jobs)
    .where(and(eq(jobs.provider, job.provider), inArray(jobs.step, [...IN_FLIGHT])));
  if ((busy?.count ?? 0) >= deps.providers.concurrency(job.provider)) return again(1000);
  // The row says "submitting" before the provider is called: a crash now is detectable.
  const [claimed] = await deps.db
    .update(jobs)
    .set({ step: "submitting", attempts: sql`${jobs.attempts} + 1` })
    .where(and(eq(jobs.id, job.id), eq(jobs.step, "queued"), eq(jobs.runner, token)))
    .returning();
  if (!claimed) return;
  try {
    const { requestId } = await provider.submit({
      endpoint: job.endpoint,
      input: (job.input.request ?? {}) as Record<string, unknown>,
      webhookUrl: deps.webhookUrl(job),
      idempotencyKey: job.id,
    });
    const [after] = await deps.db
      .update(jobs)
      .set({
        // A job cancelled meanwhile stays done: "submitted" would hold a provider slot for good.
        step: sql`case when ${jobs.status} in ('COMPLETED', 'FAILED', 'CANCELLED') then 'done' else 'submitted' end`,
        providerRequestId: requestId,
        startedAt: new Date((deps.now ?? Date.now)()),
      })
      .where(eq(jobs.id, job.id))
      .returning({ status: jobs.status });
    // Cancelled while the submit was on its way: cancel the provider's job too.
    if (after?.status === "CANCELLED") {
      await provider.cancel(job.endpoint, requestId).catch(() => undefined);
      return;
    }
    // A synchronous provider (text, images) holds its answer in this process only: it is read
    // at once, in this handler. A queue (fal, Runway, Luma) is first read after its minimum
    // wait — or, with a webhook registered, when the webhook comes (jobs/cadence.ts).
    const hooked = deps.webhookUrl(job) !== null;
    return again(firstCheckMs(deps.providers.cadence(job.provider), hooked));
  } catch (error) {
    const retry =
      error instanceof ProviderError && error.kind !== "fatal" && claimed.attempts < MAX_ATTEMPTS;
    if (!retry) throw error;
    // Provably not received (refused, 429): safe to send again later.
    await update(deps, job, { step: "queued" });
    return again(error.options.retryAfterMs ?? 2000 * claimed.attempts);
  }
}

async function poll(
  deps: StepDeps,
  job: JobRow,
  again: (ms: number) => Promise<void>,
  hinted: boolean,
) {
  const provider = deps.providers.get(job.provider);
  if (!provider || !job.providerRequestId) return;
  const cadence = deps.providers.cadence(job.provider);
  const hooked = deps.webhookUrl(job) !== null;
  const age = (deps.now ?? Date.now)() - (job.startedAt ?? job.createdAt).getTime();
  let status: ProviderStatus;
  try {
    status = await provider.status(job.endpoint, job.providerRequestId);
  } catch (error) {
    if (error instanceof ProviderError && error.kind !== "fatal") {
      // SPEC §4: "Failed to get status" is logged and polling goes on — at the polling pace
      // even for a webhook job (its webhook may already have come), slower if a 429 says so.
      deps.log.warn({ jobId: job.id, err: error.message }, "Failed to get status");
      return again(Math.max(error.options.retryAfterMs ?? 0, pollDelayMs(age, cadence)));
    }
    throw error;
  }
  if (hooked && !hinted && (status.status === "COMPLETED" || status.status === "FAILED"))
    deps.log.warn(
      { jobId: job.id, provider: job.provider },
      "a job ended without its webhook: is PUBLIC_URL reachable from the provider?",
    );
  if (status.status === "FAILED")
    return finish(deps, job, { status: "FAILED", error: status.error ?? RUN_MESSAGES.failed });
  if (status.status === "CANCELLED") return finish(deps, job, { status: "CANCELLED" });
  if (status.status === "COMPLETED") {
    await update(deps, job, {
      step: "fetching",
      status: "IN_PROGRESS",
      progress: 100,
      queuePosition: null,
    });
    return fetchResult(deps, { ...job, step: "fetching" });
  }
  // A read repeats lines the job already holds: only new ones are added (and announced).
  const added = newLogLines(job.logs, status.logs);
  const changed =
    status.status !== job.status ||
    status.queuePosition !== job.queuePosition ||
    status.progress !== job.progress ||
    added.length > 0;
  if (changed)
    await update(deps, job, {
      status: status.status,
      queuePosition: status.queuePosition,
      progress: status.progress,
      logs: [...job.logs, ...added].slice(-JOB_LOG_LINES),
    });
  return again(nextCheckMs(age, cadence, hooked));
}

/** Fetches the result and stores its media; nothing follows a stored result. */
async function fetchResult(deps: StepDeps, job: JobRow) {
  const provider = deps.providers.get(job.provider);
  const definition = getNodeDefinition(job.model);
  if (!provider || !job.providerRequestId || !definition) return;
  const result = await provider.result(job.endpoint, job.providerRequestId, {
    outputs: definition.outputs,
    request: (job.input.request ?? {}) as Record<string, unknown>,
  });
  const provenance = result.media.length > 0 ? await loadProvenance(deps.db, job) : null;
  const stored = await storeResultMedia(deps.sink, job, result.media, provenance);
  const { outputs, outputValues } = presentOutputs(definition, stored, result.values);
  await finish(deps, job, { status: "COMPLETED", outputs, outputValues });
}

async function handleFailure(
  deps: StepDeps,
  job: JobRow,
  error: unknown,
  again: (ms: number) => Promise<void>,
) {
  // A synchronous provider's answer lived in a worker that is gone: running again would
  // charge again, so the user decides.
  if ((error as { resultLost?: boolean }).resultLost) {
    const userMessage = (error as ProviderError).options?.userMessage ?? RUN_MESSAGES.failed;
    return finish(deps, job, { status: "FAILED", error: userMessage });
  }
  if (error instanceof ProviderError && error.kind !== "fatal" && job.attempts < MAX_ATTEMPTS) {
    await update(deps, job, { attempts: job.attempts + 1 });
    return again(error.options.retryAfterMs ?? 2000 * (job.attempts + 1));
  }
  const userMessage =
    error instanceof ProviderError
      ? (error.options.userMessage ?? RUN_MESSAGES.failed)
      : error instanceof OutboundFetchError
        ? "The result could not be downloaded"
        : RUN_MESSAGES.failed;
  deps.log.error({ jobId: job.id, err: (error as Error).message }, "generation failed");
  return finish(deps, job, { status: "FAILED", error: userMessage });
}

type Patch = Partial<typeof jobs.$inferInsert>;

/**
 * Moves a live job on. A job that ended meanwhile (a cancel while this step read the
 * provider) is left as it is: a late poll must not bring a cancelled job back.
 */
async function update(deps: StepDeps, job: JobRow, patch: Patch) {
  const [changed] = await deps.db
    .update(jobs)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(jobs.id, job.id), notInArray(jobs.status, [...TERMINAL])))
    .returning({ id: jobs.id });
  if (!changed) return;
  await announceJobChange(deps.db, {
    jobId: job.id,
    userId: job.userId,
    status: patch.status ?? job.status,
  });
}

/** Ends a job once: only a job not yet terminal is changed. */
export async function finish(
  deps: Pick<StepDeps, "db">,
  job: JobRow,
  end: {
    status: "COMPLETED" | "FAILED" | "CANCELLED";
    error?: string;
    log?: string;
    outputs?: Record<string, unknown>;
    outputValues?: Record<string, { value: unknown }>;
  },
): Promise<void> {
  const now = new Date();
  const [done] = await deps.db
    .update(jobs)
    .set({
      status: end.status,
      step: "done",
      error: end.error ?? null,
      queuePosition: null,
      ...(end.status === "COMPLETED" ? { progress: 100 } : {}),
      ...(end.outputs ? { outputs: end.outputs, outputValues: end.outputValues ?? {} } : {}),
      ...(end.log
        ? { logs: [...job.logs, { message: end.log, timestamp: now.toISOString() }] }
        : {}),
      completedAt: now,
      updatedAt: now,
    })
    .where(and(eq(jobs.id, job.id), notInArray(jobs.status, [...TERMINAL])))
    .returning({ id: jobs.id });
  if (done)
    await announceJobChange(deps.db, { jobId: job.id, userId: job.userId, status: end.status });
}
