import { inArray } from "drizzle-orm";
import type PgBoss from "pg-boss";
import type { AppDb } from "../../db/client.ts";
import { runs } from "../../db/schema.ts";
import { announceQueued, type JobEventHub, type QueueWakeHub } from "../../realtime/events.ts";
import { type AdvanceDeps, advanceUserRuns } from "./advance.ts";
import { ACTIVE_RUN_STATUSES } from "./run-rows.ts";

export const RUN_QUEUE = "run-advance";
const SWEEP_EVERY_MS = 15_000;
const ENDED = new Set(["COMPLETED", "FAILED", "CANCELLED"]);

export interface RunDriver {
  /** Something changed for the user's runs: move them forward (here, or on a worker). */
  kick(userId: string): Promise<void>;
  /** Drives runs in this process: job ends, kicks from web processes, and a sweep. */
  work(): Promise<void>;
  /** Advances every user with an active run (after a restart, and every 15 s). */
  sweep(): Promise<void>;
  stop(): void;
}

/**
 * Drives server-side runs (ADR 0010). A worker process advances a user's runs when one of
 * their jobs ends (job change notices), when a web process asks (a pg-boss message), and in a
 * sweep that also finishes runs a killed process left behind. Advances of one user run one
 * at a time in a process; across processes every transition is conditional and every job
 * idempotent by key, so two at once do no harm.
 */
export async function createRunDriver(deps: {
  advance: AdvanceDeps;
  boss: PgBoss;
  jobEvents: JobEventHub;
  wakes: QueueWakeHub;
  ensureQueue(name: string): Promise<void>;
}): Promise<RunDriver> {
  const { db } = deps.advance as { db: AppDb };
  await deps.ensureQueue(RUN_QUEUE);
  let working = false;
  let stopWatching: (() => void) | null = null;
  let stopWakes: (() => void) | null = null;
  let sweeper: ReturnType<typeof setInterval> | null = null;
  // Per user: the advance under way, and whether another was asked for meanwhile.
  const busy = new Map<string, { again: boolean; done: Promise<void> }>();

  const advance = (userId: string): Promise<void> => {
    const current = busy.get(userId);
    if (current) {
      current.again = true;
      return current.done;
    }
    const entry = { again: false, done: Promise.resolve() };
    entry.done = (async () => {
      try {
        do {
          entry.again = false;
          await advanceUserRuns(deps.advance, userId).catch((error) =>
            deps.advance.log.error({ err: error, userId }, "run advance failed"),
          );
        } while (entry.again);
      } finally {
        busy.delete(userId);
      }
    })();
    busy.set(userId, entry);
    return entry.done;
  };

  const driver: RunDriver = {
    async kick(userId) {
      // Answered at once; the advance goes on in the background.
      if (working) {
        void advance(userId);
        return;
      }
      await deps.boss.send(RUN_QUEUE, { userId });
      // The worker that drives runs picks it up now, not at its next poll (0.5 s); best
      // effort, as the poll finds it either way.
      await announceQueued(db, { queue: RUN_QUEUE }).catch((error) =>
        deps.advance.log.error({ err: error }, "could not wake the run driver"),
      );
    },
    async work() {
      if (working) return;
      working = true;
      const queueWorker = await deps.boss.work<{ userId: string }>(
        RUN_QUEUE,
        { batchSize: 1 },
        async ([message]) => {
          if (message) await advance(message.data.userId);
        },
      );
      stopWakes = deps.wakes.subscribe(RUN_QUEUE, () => deps.boss.notifyWorker(queueWorker));
      stopWatching = deps.jobEvents.subscribeAll((event) => {
        if (ENDED.has(event.status)) void advance(event.userId);
      });
      await driver.sweep();
      sweeper = setInterval(() => void driver.sweep(), SWEEP_EVERY_MS);
      sweeper.unref();
    },
    async sweep() {
      const users = await db
        .selectDistinct({ userId: runs.userId })
        .from(runs)
        .where(inArray(runs.status, [...ACTIVE_RUN_STATUSES]))
        .catch(() => []);
      await Promise.all(users.map((row) => advance(row.userId)));
    },
    stop() {
      working = false;
      stopWatching?.();
      stopWakes?.();
      stopWakes = null;
      if (sweeper) clearInterval(sweeper);
      sweeper = null;
    },
  };
  return driver;
}
