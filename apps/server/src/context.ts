import { join } from "node:path";
import { LIMITS } from "@atelier/core";
import { type Auth, createAuth, promoteAdmins } from "./auth/auth.ts";
import { createRunDriver, type RunDriver } from "./commands/runs/run-driver.ts";
import { startGeneration } from "./commands/start-generation.ts";
import { type Database, openDatabase } from "./db/client.ts";
import { s3StartProblem } from "./entrypoints/startup.ts";
import type { Config } from "./env.ts";
import { ensureQueue } from "./jobs/boss.ts";
import { type Generation, openGeneration } from "./jobs/generation.ts";
import { moduleLogger, setLogLevel } from "./log.ts";
import { EventHub, JobEventHub, QueueWakeHub, RunEventHub } from "./realtime/events.ts";
import type { BlobStore } from "./storage/blob-store.ts";
import { createFsStore } from "./storage/fs-store.ts";
import { createS3Store } from "./storage/s3-store.ts";

/** Everything a request handler may reach, opened once per process. */
export interface AppContext {
  config: Config;
  database: Database;
  store: BlobStore;
  auth: Auth;
  events: EventHub;
  jobEvents: JobEventHub;
  runEvents: RunEventHub;
  /** Work queued in one process for the workers of another (generation steps, run kicks). */
  queueWakes: QueueWakeHub;
  /** The job engine and providers, started on first use (or at start-up by the entrypoints). */
  generation(): Promise<Generation>;
  /** The driver of server-side runs (on top of the job engine), started with it. */
  runs(): Promise<RunDriver>;
  /** Runs the worker side in this process: generation steps and run driving. */
  work(options: { concurrency: number; resumeAll?: boolean }): Promise<void>;
  /** Stops the job engine and event streams; the database stays open. */
  shutdown(): Promise<void>;
  close(): Promise<void>;
}

export interface ContextOverrides {
  database?: Database;
  /** The PostgreSQL URL of an overridden database (the job queue opens its own pool). */
  databaseUrl?: string | null;
  store?: BlobStore;
}

/**
 * The media store the configuration names. A bucket that cannot be reached, is missing or
 * refuses the keys stops the start with one line naming the settings to check.
 */
export async function openStore(config: Config): Promise<BlobStore> {
  const { s3 } = config;
  if (s3)
    return createS3Store(s3).catch((error: unknown) => Promise.reject(s3StartProblem(error, s3)));
  return createFsStore(join(config.dataDir, "media"), LIMITS.upload.bucket);
}

export async function createContext(
  config: Config,
  overrides: ContextOverrides = {},
): Promise<AppContext> {
  setLogLevel(config.logLevel);
  // The store first: a bucket that cannot be reached fails the start before any migration.
  const store = overrides.store ?? (await openStore(config));
  const database =
    overrides.database ??
    (await openDatabase({ url: config.databaseUrl, dataDir: join(config.dataDir, "db") }));
  await promoteAdmins(database.db, config.adminEmails);
  const events = new EventHub(database);
  await events.start();
  const jobEvents = new JobEventHub(database);
  await jobEvents.start();
  const runEvents = new RunEventHub(database);
  await runEvents.start();
  const queueWakes = new QueueWakeHub(database);
  await queueWakes.start();
  const auth = createAuth(config, database.db);
  let generation: Promise<Generation> | null = null;
  let runDriver: Promise<RunDriver> | null = null;
  const connectionString = overrides.database
    ? (overrides.databaseUrl ?? null)
    : config.databaseUrl;
  const startGenerationOnce = (): Promise<Generation> => {
    generation ??= openGeneration({
      config,
      database,
      store,
      connectionString,
      wakes: queueWakes,
    });
    return generation;
  };
  const openRuns = (): Promise<RunDriver> => {
    runDriver ??= startGenerationOnce().then((started) =>
      createRunDriver({
        advance: {
          db: database.db,
          startJob: async (userId, model, input, clientAddress) => {
            const deps = {
              db: database.db,
              store,
              publicUrl: config.publicUrl,
              anonymousRuns: config.generation.anonymousRuns,
              budgets: config.limits.budgets,
            };
            const { job } = await startGeneration(
              { ...deps, generation: started },
              userId,
              model,
              input,
              clientAddress,
            );
            return job;
          },
          log: moduleLogger("runs"),
        },
        boss: started.boss,
        jobEvents,
        wakes: queueWakes,
        ensureQueue: (name) =>
          ensureQueue(started.boss, name, { retryLimit: 3, retryDelay: 1, expireInSeconds: 120 }),
      }),
    );
    return runDriver;
  };
  const shutdown = async () => {
    const driver = runDriver;
    runDriver = null;
    if (driver) (await driver).stop();
    const started = generation;
    generation = null;
    if (started) await (await started).stop();
    await events.close();
    await jobEvents.close();
    await runEvents.close();
    await queueWakes.close();
  };
  return {
    config,
    database,
    store,
    auth,
    events,
    jobEvents,
    runEvents,
    queueWakes,
    generation: startGenerationOnce,
    runs: openRuns,
    async work(options) {
      await (await startGenerationOnce()).engine.work(options);
      await (await openRuns()).work();
    },
    shutdown,
    async close() {
      await shutdown();
      await database.close();
    },
  };
}
