import { fileURLToPath } from "node:url";
import { createContext } from "../context.ts";
import { loadConfig } from "../env.ts";
import { readEnvFile } from "./startup.ts";
import { exitOnConfigError } from "./web.ts";

/**
 * The worker process of the scale-out shape: it runs generation jobs from the shared queue
 * (any number of workers) and drives server-side runs, with the same database and storage as the web processes.
 */
export async function startWorker() {
  readEnvFile();
  const config = loadConfig();
  const ctx = await createContext(config);
  const generation = await ctx.generation();
  await ctx.work({ concurrency: config.generation.workerConcurrency });
  console.log(
    `Atelier worker ready (${ctx.database.kind}, ${ctx.store.kind} storage; providers: ${[
      ...generation.providers.configured,
    ].join(", ")}).`,
  );
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      void ctx.close().then(() => process.exit(0));
    });
  }
  return ctx;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  startWorker().catch(exitOnConfigError);
}
