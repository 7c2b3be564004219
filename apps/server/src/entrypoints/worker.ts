import { fileURLToPath } from "node:url";
import { createContext } from "../context.ts";
import { loadConfig } from "../env.ts";
import { exitOnConfigError } from "./web.ts";

/**
 * The worker process of the scale-out shape. It opens the same database and storage as the
 * web processes; the generation job handlers register here when the job engine lands.
 */
export async function startWorker() {
  const config = loadConfig();
  const ctx = await createContext(config);
  console.log(
    `Atelier worker ready (${ctx.database.kind}, ${ctx.store.kind} storage); no job types registered yet.`,
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
