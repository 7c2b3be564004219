/**
 * The job-queue engine: pg-boss 10 on the database the app already uses (DESIGN §1, §3).
 *
 * - PGlite (embedded shape): pg-boss talks to the app's own PGlite instance through a small
 *   `executeSql` adapter (see `pgliteTracked`).
 * - PostgreSQL (scale-out shape): pg-boss gets its own small `pg` pool from the connection
 *   string, so job polling never competes with HTTP requests for the app's pool.
 *
 * Start with `startBoss`, stop with `stopBoss` (not `boss.stop()` alone: `stopBoss` also waits
 * for the work pg-boss 10 leaves running after its own stop, then closes the adapter/pool).
 * A stopped instance is not restarted; call `startBoss` again (that is how a restart works).
 *
 * What was found about PGlite (checked against @electric-sql/pglite 0.5.16 and pg-boss 10.4):
 *
 * 1. PGlite is one session. Its public `query`, `exec` and `transaction` all take one internal
 *    "transaction" lock, and `transaction()` holds it until its callback settles. So a pg-boss
 *    statement never runs inside a drizzle transaction (drizzle's pglite driver uses
 *    `transaction()`), nor a drizzle statement inside pg-boss's `BEGIN … COMMIT` string, which
 *    is sent as one Simple Query message and so is atomic with respect to other callers.
 * 2. Consequence — deadlock hazard: never `await` a pg-boss call (send, fetch, …) inside a
 *    drizzle `db.transaction()` callback on PGlite. The pg-boss call waits for the lock the
 *    transaction holds, and the transaction waits for the pg-boss call: both hang. Send jobs
 *    after the transaction commits (the app's own job row is what makes work durable).
 *    While a drizzle transaction is open, pg-boss (worker polling included) simply waits.
 * 3. A `BEGIN; …; COMMIT` string that fails part-way leaves the session inside an aborted
 *    transaction ("current transaction is aborted, commands ignored…") — on PGlite and on
 *    PostgreSQL alike. pg-boss's install/migrate/maintenance SQL is such a string, and its
 *    install race handling *expects* one to fail ("already exists" when two instances install
 *    at once). On PGlite that would break every later query of the app, so the adapter sends
 *    parameterless SQL through `pglite.transaction(tx => tx.exec(sql))`: PGlite issues ROLLBACK
 *    before it releases its lock. (The string's own BEGIN/COMMIT nest harmlessly inside: the
 *    server only warns, and PGlite does not print warnings.) On PostgreSQL, `pg.Pool#query`
 *    destroys a client whose query failed, so an aborted session never returns to the pool.
 * 4. Results: PGlite parses int8 counts to numbers and `interval` to a string (pg gives an
 *    object); pg-boss only `parseInt`/`parseFloat`s the former and never reads the latter.
 *
 * pg-boss 10 on stop: `stop({ graceful, wait, timeout })` stops polling, waits (up to
 * `timeout`, minimum 1 s) while a handler it can see is running, marks still-running jobs
 * failed, then resolves (`wait: true`) — but it does not wait for a poll already in flight
 * (whose job then runs after stop) nor for the `complete()`/`fail()` it fires without awaiting
 * after a handler ends. `stopBoss` waits for both, so nothing touches the database after it.
 *
 * pg-boss 10 on singletonKey (asserted in test/boss.test.ts): a key alone de-duplicates only on
 * queues created with policy `short` (one *queued* job per key) or `stately` (one per state up
 * to active); on a `standard` queue a key de-duplicates only with singletonSeconds/Minutes/Hours
 * (one job per key per time slot). A de-duplicated `send` resolves to null.
 *
 * Restarts and several processes: pg-boss installs/migrates its schema under a transaction
 * advisory lock, and treats losing an install race as success; both shapes are covered by the
 * tests. On PGlite only one process may open the data directory anyway. pg-boss 10 does not
 * reclaim jobs left `active` by a crashed process until they expire (`expireInSeconds`, default
 * 15 min), then retries them if retries remain; queues that want a quicker recovery should set
 * a shorter `expireInSeconds`.
 */
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import PgBoss from "pg-boss";
import type { Database } from "../db/client.ts";
import { moduleLogger } from "../log.ts";

/** pg-boss's tables live in this schema unless told otherwise. */
export const BOSS_SCHEMA = "pgboss";

/** How long `stopBoss` lets running handlers finish by default. */
export const BOSS_STOP_TIMEOUT_MS = 10_000;

/**
 * Options chosen for an interactive app; the queue/job defaults (retries, expiry, retention)
 * are set per queue by the tasks, not here.
 */
export const BOSS_OPTIONS = {
  /** Workers poll every 0.5 s, pg-boss 10's minimum, so a queued generation starts at once. */
  pollingIntervalSeconds: 0.5,
  /** Install and migrate pg-boss's own schema on start (under its advisory lock). */
  migrate: true,
  /** Maintenance on: expire stuck active jobs (→ retry), archive and delete old ones. */
  supervise: true,
  /** Every minute (default 2), so a job orphaned by a crash is noticed sooner. */
  maintenanceIntervalSeconds: 60,
  /**
   * Cron scheduling off: nothing here uses `schedule()`, and it would add a worker polling
   * every 5 s plus a cron check every 30 s. Turn it on if cron jobs are added.
   */
  schedule: false,
  // Monitoring stays off: `monitorStateIntervalSeconds` is not set.
} as const satisfies PgBoss.ConstructorOptions;

/** pg-boss's own pool size on PostgreSQL (per process): polls and completions are short. */
const POSTGRES_POOL_MAX = 4;

export interface StartBossOptions {
  /** postgres:// URL of the app's database; required when `database.kind` is "postgres". */
  connectionString?: string | null;
  /** Schema for pg-boss's tables (default `pgboss`); tests use a unique one. */
  schema?: string;
  /** Receives pg-boss's background errors (maintenance, polling); default: the jobs logger. */
  onError?: (error: unknown) => void;
}

/** What pg-boss calls, plus what `stopBoss` needs to finish cleanly. */
interface Executor extends PgBoss.Db {
  /** Settles when no call is in flight. */
  idle(): Promise<void>;
  busy(): boolean;
  /** Later calls resolve to undefined, as with pg-boss's own closed pool. */
  close(): Promise<void>;
}

interface Runtime {
  executor: Executor;
  handlers: Set<Promise<void>>;
}

const runtimes = new WeakMap<PgBoss, Runtime>();

function noop(): void {}

/**
 * Counts calls in flight and, once closed, answers `undefined` like pg-boss's own `Db` does
 * after `stop()`: pg-boss's un-awaited `complete()`/`fail()` then end quietly (the job is
 * retried after it expires) instead of raising an unhandled rejection, and API calls such as
 * `send` fail.
 */
function tracked(
  run: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>,
  onClose: () => Promise<void>,
): Executor {
  const inFlight = new Set<Promise<unknown>>();
  let closed = false;
  return {
    executeSql(text, values) {
      if (closed) return Promise.resolve(undefined as unknown as { rows: unknown[] });
      const result = run(text, values);
      const settled = result.then(noop, noop);
      inFlight.add(settled);
      void settled.then(() => inFlight.delete(settled));
      return result;
    },
    async idle() {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
    busy: () => inFlight.size > 0,
    async close() {
      if (closed) return;
      closed = true;
      await onClose();
    },
  };
}

/**
 * pg-boss's `db` on PGlite. Every call is serialised through a promise chain of its own (shared
 * with nothing else; PGlite itself then orders it with the app's queries). Parameterised SQL —
 * always a single statement — goes through `query`; parameterless SQL, which may be a
 * `BEGIN; …; COMMIT` string, goes through `exec` inside `transaction()` so that a failure is
 * rolled back before anyone else runs (see note 3 above). Results are `{ rows }` of the last
 * statement, which is all pg-boss reads.
 */
function pgliteTracked(pglite: PGlite): Executor {
  let tail: Promise<unknown> = Promise.resolve();
  const runOne = async (text: string, values?: unknown[]): Promise<{ rows: unknown[] }> => {
    if (values && values.length > 0) {
      const { rows } = await pglite.query(text, values);
      return { rows };
    }
    const results = await pglite.transaction((tx) => tx.exec(text));
    return { rows: results.at(-1)?.rows ?? [] };
  };
  return tracked(
    (text, values) => {
      const result = tail.then(() => runOne(text, values));
      tail = result.then(noop, noop);
      return result;
    },
    // The PGlite instance belongs to the app, which closes it.
    async () => {},
  );
}

function postgresTracked(connectionString: string, onError: (error: unknown) => void): Executor {
  const pool = new pg.Pool({
    connectionString,
    max: POSTGRES_POOL_MAX,
    application_name: "atelier-pgboss",
  });
  // An idle client lost its connection; the pool replaces it on next use.
  pool.on("error", onError);
  return tracked(
    (text, values) => pool.query(text, values),
    () => pool.end(),
  );
}

function defaultOnError(error: unknown): void {
  moduleLogger("jobs").error({ err: error }, "pg-boss error");
}

/**
 * Starts pg-boss on `database` (PGlite: through the app's instance; PostgreSQL: through a pool
 * of its own made from `options.connectionString`), installing or migrating its schema first.
 * Stop it with `stopBoss`.
 */
export async function startBoss(
  database: Database,
  options: StartBossOptions = {},
): Promise<PgBoss> {
  const onError = options.onError ?? defaultOnError;
  let executor: Executor;
  if (database.kind === "pglite") {
    if (!database.pglite) throw new Error("PGlite database without its engine");
    executor = pgliteTracked(database.pglite);
  } else {
    if (!options.connectionString) throw new Error("The job queue needs the PostgreSQL URL");
    executor = postgresTracked(options.connectionString, onError);
  }

  const boss = new PgBoss({ ...BOSS_OPTIONS, schema: options.schema ?? BOSS_SCHEMA, db: executor });
  // pg-boss emits "error" from timers; without a listener the emit would throw.
  boss.on("error", onError);

  const runtime: Runtime = { executor, handlers: new Set() };
  trackHandlers(boss, runtime.handlers);
  runtimes.set(boss, runtime);

  try {
    await boss.start();
  } catch (error) {
    runtimes.delete(boss);
    await executor.close().catch(noop);
    throw error;
  }
  return boss;
}

/**
 * Wraps `boss.work` so `stopBoss` can wait for every handler, including one started by a poll
 * that was in flight when pg-boss stopped (pg-boss 10 neither waits for it nor sees it).
 */
function trackHandlers(boss: PgBoss, handlers: Set<Promise<void>>): void {
  const work = boss.work.bind(boss) as (name: string, ...args: unknown[]) => Promise<string>;
  const wrapped = (name: string, ...args: unknown[]): Promise<string> => {
    const handler = args.at(-1);
    if (typeof handler !== "function") return work(name, ...args);
    const track = (jobs: unknown): unknown => {
      const result: unknown = handler(jobs);
      const settled = Promise.resolve(result).then(noop, noop);
      handlers.add(settled);
      void settled.then(() => handlers.delete(settled));
      return result;
    };
    return work(name, ...args.slice(0, -1), track);
  };
  (boss as { work: unknown }).work = wrapped;
}

/** PostgreSQL's "deadlock detected" and "unique violation": two processes racing. */
const RACE_CODES = new Set(["40P01", "23505"]);

/**
 * Creates a queue (or keeps the existing one). pg-boss 10's `create_queue` alters tables
 * under locks that deadlock when several processes start together on a fresh database (a
 * web and a worker); the loser of such a race simply tries again after a short pause.
 */
export async function ensureQueue(
  boss: PgBoss,
  name: string,
  options: Omit<PgBoss.Queue, "name">,
  attempts = 5,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.createQueue(name, { name, ...options });
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (!code || !RACE_CODES.has(code) || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
    }
  }
}

/** Resolves when `promise` settles or `ms` pass, whichever is first. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.then(noop, noop),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, ms));
    }),
  ]);
  clearTimeout(timer);
}

/**
 * Graceful stop: no new jobs are fetched; running handlers get up to `timeoutMs` to finish
 * (pg-boss then marks the rest failed, which retries them if retries remain); the completions
 * pg-boss sends without awaiting are awaited; then the pool (PostgreSQL) is closed. Nothing of
 * this instance touches the database after it resolves, so the app may close the database.
 */
export async function stopBoss(boss: PgBoss, options: { timeoutMs?: number } = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? BOSS_STOP_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  try {
    await boss.stop({ graceful: true, wait: true, timeout: timeoutMs });
  } finally {
    const runtime = runtimes.get(boss);
    runtimes.delete(boss);
    if (runtime) await settle(runtime, deadline);
  }
}

/** Waits (until `deadline`) for handlers and database calls pg-boss left running, then closes. */
async function settle({ executor, handlers }: Runtime, deadline: number): Promise<void> {
  for (;;) {
    await within(Promise.all(handlers), deadline - Date.now());
    // A handler's end starts pg-boss's complete()/fail() within microtasks; let them begin.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await within(executor.idle(), deadline - Date.now());
    if ((handlers.size === 0 && !executor.busy()) || Date.now() >= deadline) break;
  }
  await executor.close();
}
