import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp } from "../app.ts";
import { type AppContext, createContext } from "../context.ts";
import { loadConfig } from "../env.ts";
import { rootLogger } from "../log.ts";
import { readEnvFile } from "./startup.ts";
import { startWorkerChild, WORKER_CHILD_ENV, type WorkerChild } from "./worker-child.ts";

/**
 * The web process: HTTP API and the built web app. Run any number behind a load balancer.
 * With `withWorker` (the all-in-one default) it also runs the generation worker — in this
 * process on PGlite, as a child process on PostgreSQL (worker-child.ts) — and being the only
 * web process it keeps the batches of large saves in memory until their commit; web
 * processes stage them in the shared store, as another may receive the commit.
 */
export async function startWeb(options: { withWorker?: boolean } = {}) {
  readEnvFile();
  const loaded = loadConfig();
  const config = options.withWorker ? loaded : { ...loaded, saveStagingMemoryBytes: 0 };
  const ctx = await createContext(config);
  // The job queue starts with the process, so a restart resumes unfinished jobs at once.
  await ctx.generation();
  await ctx.runs();
  const inProcessWorker = options.withWorker && ctx.database.kind === "pglite";
  if (inProcessWorker)
    await ctx.work({ concurrency: config.generation.workerConcurrency, resumeAll: true });
  // WEB_ROOT lets benchmarks and parallel test runs serve their own build.
  const webRoot = process.env.WEB_ROOT ?? join(serverPackageRoot(), "../web/dist");
  const app = await buildApp(ctx, { webRoot, logger: { level: config.logLevel } });
  app.addHook("onClose", () => ctx.close());
  await app.listen({ port: config.port, host: config.host });
  // The handlers before the fork: a signal that came before them would end this process at
  // once, leaving the worker to notice on its own.
  let worker: WorkerChild | null = null;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      void Promise.all([app.close(), worker?.stop()]).then(() => process.exit(0));
    });
  }
  if (options.withWorker && !inProcessWorker) worker = startWorkerChild();
  return app;
}

/**
 * The worker process of the scale-out shape: it runs generation jobs from the shared queue
 * (any number of workers) and drives server-side runs, with the same database and storage as the web processes.
 */
export async function startWorker() {
  readEnvFile();
  const config = loadConfig();
  // Stopping is wired before the start: a signal, or the end of the all-in-one server that
  // forked this worker (worker-child.ts: its end, however abrupt, closes the IPC channel),
  // may come while the context is still being made, and must not be missed.
  let ctx: AppContext | null = null;
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    void (ctx?.close() ?? Promise.resolve()).finally(() => process.exit(0));
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, close);
  if (process.env[WORKER_CHILD_ENV] !== undefined && process.send !== undefined)
    process.once("disconnect", close);
  const started = await createContext(config);
  ctx = started;
  const generation = await started.generation();
  await started.work({ concurrency: config.generation.workerConcurrency });
  rootLogger.info(
    `Atelier worker ready (${started.database.kind}, ${started.store.kind} storage; providers: ${[
      ...generation.providers.configured,
    ].join(", ")}).`,
  );
  return started;
}

/**
 * apps/server, whether this code runs from its sources (src/entrypoints/) or from the build
 * (dist/, one bundle): the nearest folder above that holds a package.json.
 */
function serverPackageRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, "package.json"))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error("apps/server/package.json not found");
    folder = parent;
  }
  return folder;
}
