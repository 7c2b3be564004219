import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp } from "../app.ts";
import { createContext } from "../context.ts";
import { loadConfig } from "../env.ts";
import { readEnvFile, startupProblem } from "./startup.ts";

/**
 * The web process: HTTP API and the built web app. Run any number behind a load balancer.
 * With `withWorker` (the all-in-one default) it also runs the generation worker, and being
 * the only process it keeps the batches of large saves in memory until their commit; web
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
  if (options.withWorker)
    await ctx.work({
      concurrency: config.generation.workerConcurrency,
      resumeAll: ctx.database.kind === "pglite",
    });
  // WEB_ROOT lets benchmarks and parallel test runs serve their own build.
  const webRoot =
    process.env.WEB_ROOT ?? fileURLToPath(new URL("../../../web/dist", import.meta.url));
  const app = await buildApp(ctx, { webRoot, logger: { level: config.logLevel } });
  app.addHook("onClose", () => ctx.close());
  await app.listen({ port: config.port, host: config.host });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      void app.close().then(() => process.exit(0));
    });
  }
  return app;
}

/**
 * Ends a start that failed on a setting with the one line naming it (exit code 78, EX_CONFIG);
 * anything else is thrown on, stack and all.
 */
export function exitOnConfigError(error: unknown): never {
  const problem = startupProblem(error, {
    port: Number(process.env.PORT ?? 3000),
    dataDir: resolve(process.env.DATA_DIR ?? "./data"),
    databaseUrl: process.env.DATABASE_URL ?? null,
  });
  if (problem) {
    console.error(problem.message);
    process.exit(78);
  }
  throw error;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  startWeb().catch(exitOnConfigError);
}
