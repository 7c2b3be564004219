import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { and, eq, inArray, lt } from "drizzle-orm";
import type PgBoss from "pg-boss";
import type { AppDb } from "../db/client.ts";
import type { JobRow } from "../db/rows.ts";
import { jobs, workers } from "../db/schema.ts";
import type { ProviderRegistry } from "../providers/registry.ts";
import { announceQueued, type QueueWakeHub } from "../realtime/events.ts";
import { ensureQueue } from "./boss.ts";
import { runStep, type StepDeps } from "./steps.ts";
import type { MediaSink } from "./store-media.ts";

export const GENERATION_QUEUE = "generation";
const SWEEP_EVERY_MS = 15_000;
const INLINE_WAIT_MS = 1000;
/** Providers that call back, at `/api/callbacks/<provider>/<token>` (routes/callbacks.ts). */
const WEBHOOK_PROVIDERS: ReadonlySet<string> = new Set(["fal", "luma", "replicate"]);

interface StepMessage {
  jobId: string;
  token: string;
  /** Sent by a provider's callback (a webhook nudge), not by the job's own schedule. */
  hint?: boolean;
}

export interface GenerationEngine {
  /** Starts a new job's first step (call after its row is committed). */
  start(job: JobRow): Promise<void>;
  /** A hint (webhook, callback) that a job changed: check it now. */
  nudge(jobId: string): Promise<void>;
  /**
   * Runs the worker side in this process: step handlers and the sweeper. `resumeAll` takes
   * over every unfinished job at once (only when no other worker can be running).
   */
  work(options: { concurrency: number; resumeAll?: boolean }): Promise<void>;
  /** Takes over jobs untouched for `staleAfterMs` (their worker died); returns how many. */
  sweep(staleAfterMs?: number): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Durable generation jobs on pg-boss (DESIGN §4.9). The job row is the truth; pg-boss only
 * carries "run the next step of job X with token T". A job resumes after any restart: the
 * sweeper re-issues a step for every non-terminal job nobody has touched lately.
 */
export async function createEngine(deps: {
  db: AppDb;
  boss: PgBoss;
  providers: ProviderRegistry;
  sink: MediaSink;
  publicUrl: string;
  webhooks: boolean;
  /**
   * A live job is touched by every step (≤ 15 s apart while polling, a submit ≤ 30 s), and a
   * job that waits longer (for a webhook) is marked with when its next step is due: silence
   * past that by this much means its worker died.
   */
  staleAfterMs: number;
  /** Wakes between processes: a web process's new job reaches another's workers at once. */
  wakes: QueueWakeHub;
  log: StepDeps["log"];
}): Promise<GenerationEngine> {
  const { db, boss } = deps;
  await ensureQueue(boss, GENERATION_QUEUE, {
    retryLimit: 3,
    retryDelay: 2,
    expireInSeconds: 300,
  });
  const schedule = async (jobId: string, token: string, delayMs: number, hint = false) => {
    await boss.send(
      GENERATION_QUEUE,
      { jobId, token, ...(hint ? { hint } : {}) } satisfies StepMessage,
      delayMs > 0 ? { startAfter: new Date(Date.now() + delayMs) } : {},
    );
  };
  // A wait the sweeper would take for a dead worker (a webhook job's safety net, minutes):
  // the row's heartbeat says when the step is due, so only an overdue job is taken over.
  const scheduleStep = async (jobId: string, token: string, delayMs: number) => {
    if (delayMs >= deps.staleAfterMs / 2)
      await db
        .update(jobs)
        .set({ heartbeatAt: new Date(Date.now() + delayMs) })
        .where(and(eq(jobs.id, jobId), eq(jobs.runner, token)));
    await schedule(jobId, token, delayMs);
  };
  // Short waits (the local provider's steps) stay in the handler; longer ones go back to
  // the queue, so a worker is never held by a job that is only waiting.
  const drive = async (jobId: string, first: string, hint: boolean) => {
    let pending: { token: string; delayMs: number } | null = { token: first, delayMs: 0 };
    let hinted = hint;
    while (pending) {
      const { token, delayMs } = pending;
      pending = null;
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      await runStep(
        {
          ...stepDeps,
          schedule: async (id, next, ms) => {
            if (ms <= INLINE_WAIT_MS) pending = { token: next, delayMs: ms };
            else await scheduleStep(id, next, ms);
          },
        },
        jobId,
        token,
        hinted,
      );
      hinted = false;
    }
  };
  const stepDeps: StepDeps = {
    db,
    providers: deps.providers,
    sink: deps.sink,
    schedule: scheduleStep,
    webhookUrl: (job) =>
      deps.webhooks && WEBHOOK_PROVIDERS.has(job.provider)
        ? `${deps.publicUrl}/api/callbacks/${job.provider}/${job.callbackToken}`
        : null,
    log: deps.log,
  };
  let sweeper: ReturnType<typeof setInterval> | null = null;
  /** This process's step workers: a new job wakes them rather than waiting for their poll. */
  const queueWorkers: string[] = [];
  /** This process as the workers table knows it (while it works the queue). */
  const self = { id: randomUUID(), host: hostname(), pid: process.pid, startedAt: new Date() };
  let heartbeat: Promise<unknown> = Promise.resolve();
  let stopWakes: (() => void) | null = null;
  // Workers fetch every 0.5 s; one that is asleep picks a new step up now (a run's next step
  // would otherwise wait for the poll: 0.5 s a step, ADR 0010). Without workers here, the
  // processes that have them are told.
  const wakeLocalWorkers = () => {
    for (const id of queueWorkers) boss.notifyWorker(id);
  };
  const wakeWorkers = async () => {
    // Best effort: the job is queued either way, and a worker's poll finds it.
    if (queueWorkers.length === 0)
      await announceQueued(db, { queue: GENERATION_QUEUE }).catch((error) =>
        deps.log.warn({ err: error }, "could not wake the workers"),
      );
    wakeLocalWorkers();
  };

  const engine: GenerationEngine = {
    async start(job) {
      if (!job.runner) return;
      await schedule(job.id, job.runner, 0);
      await wakeWorkers();
    },
    async nudge(jobId) {
      const [job] = await db
        .select({ runner: jobs.runner, step: jobs.step })
        .from(jobs)
        .where(eq(jobs.id, jobId));
      // Only a job waiting on its provider: a fetch under way (or a job already done) needs
      // no second read — a duplicate webhook changes nothing.
      if (!job?.runner || job.step !== "submitted") return;
      // Same token as the scheduled step: whichever runs first claims it, the other does nothing.
      await schedule(jobId, job.runner, 0, true);
      await wakeWorkers();
    },
    async work({ concurrency, resumeAll }) {
      const handler = async ([message]: PgBoss.Job<StepMessage>[]) => {
        if (message)
          await drive(message.data.jobId, message.data.token, message.data.hint === true);
      };
      for (let worker = 0; worker < concurrency; worker++)
        queueWorkers.push(
          await boss.work<StepMessage>(GENERATION_QUEUE, { batchSize: 1 }, handler),
        );
      stopWakes?.();
      stopWakes = deps.wakes.subscribe(GENERATION_QUEUE, wakeLocalWorkers);
      // A finished job is never in flight: rows an older version left so (a cancel during a
      // submit) would hold their provider's slots for good. Once, at start-up.
      await db
        .update(jobs)
        .set({ step: "done" })
        .where(
          and(
            inArray(jobs.status, ["COMPLETED", "FAILED", "CANCELLED"]),
            inArray(jobs.step, ["submitting", "submitted", "fetching"]),
          ),
        );
      // The embedded shape is one process: every unfinished job is ours to resume right away.
      await engine.sweep(resumeAll ? 0 : deps.staleAfterMs);
      // This process says it is alive (instance health) as often as it sweeps; rows of
      // processes that died without saying so go after a day.
      const alive = async () => {
        await db
          .insert(workers)
          .values({ ...self, concurrency, seenAt: new Date() })
          .onConflictDoUpdate({ target: workers.id, set: { seenAt: new Date() } });
        await db.delete(workers).where(lt(workers.seenAt, new Date(Date.now() - 86_400_000)));
      };
      await alive();
      sweeper = setInterval(() => {
        engine.sweep().catch((error) => deps.log.error({ err: error }, "sweep failed"));
        heartbeat = alive().catch((error) =>
          deps.log.error({ err: error }, "worker heartbeat failed"),
        );
      }, SWEEP_EVERY_MS);
      sweeper.unref();
    },
    async sweep(staleAfterMs = deps.staleAfterMs) {
      const stale = await db
        .select({ id: jobs.id, runner: jobs.runner })
        .from(jobs)
        .where(
          and(
            inArray(jobs.status, ["IN_QUEUE", "IN_PROGRESS"]),
            lt(jobs.heartbeatAt, new Date(Date.now() - staleAfterMs)),
          ),
        );
      let taken = 0;
      for (const job of stale) {
        const token = randomUUID();
        const [claimed] = await db
          .update(jobs)
          .set({ runner: token, heartbeatAt: new Date() })
          .where(and(eq(jobs.id, job.id), eq(jobs.runner, job.runner ?? "")))
          .returning({ id: jobs.id });
        if (!claimed) continue;
        await schedule(job.id, token, 0);
        taken++;
      }
      return taken;
    },
    async stop() {
      const working = sweeper !== null;
      queueWorkers.length = 0;
      stopWakes?.();
      stopWakes = null;
      if (sweeper) clearInterval(sweeper);
      sweeper = null;
      // A heartbeat on its way would write the row again after the delete.
      await heartbeat;
      if (working)
        await db
          .delete(workers)
          .where(eq(workers.id, self.id))
          .catch(() => undefined);
    },
  };
  return engine;
}
