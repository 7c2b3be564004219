import { type ChildProcess, fork } from "node:child_process";
import { getPriority, setPriority } from "node:os";
import { fileURLToPath } from "node:url";
import { moduleLogger } from "../log.ts";

/**
 * The worker's CPU priority below the HTTP process's (niceness +10): a status poll never waits behind a
 * run's orchestration (bench R2: p99 62 → 8 ms while 50 users run workflows).
 */
const WORKER_NICE = 10;
/** How long a stopping worker may take to finish its steps before it is killed. */
const STOP_GRACE_MS = 10_000;
/** A worker that died is started again after 1 s, then 2 s, … up to 30 s. */
const RESTART_FIRST_MS = 1000;
const RESTART_MAX_MS = 30_000;
/** A worker that ran this long without dying starts the back-off over. */
const HEALTHY_AFTER_MS = 60_000;

/** worker.ts beside this file, from the sources (tsx) or from the build (dist/, flat). */
const WORKER_ENTRY = fileURLToPath(
  new URL(import.meta.url.endsWith(".ts") ? "./worker.ts" : "./worker.js", import.meta.url),
);

/** Set in the forked worker's environment (to the server's pid): it ends with its server. */
export const WORKER_CHILD_ENV = "ATELIER_WORKER_OF";

/**
 * Node flags without an inspector (and its port's value): this process holds the port, and
 * the worker could not start with it.
 */
export function withoutInspector(flags: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < flags.length; index++) {
    const flag = flags[index] as string;
    if (!/^--(inspect|debug)/.test(flag)) kept.push(flag);
    // "--inspect-port 9230": the value is its own word.
    else if (/^--(inspect|debug)-port$/.test(flag)) index++;
  }
  return kept.filter(Boolean);
}

export interface WorkerChild {
  /** Stops the worker (SIGTERM, then SIGKILL after the grace) and does not restart it. */
  stop(): Promise<void>;
}

/**
 * The all-in-one server on PostgreSQL runs the generation worker and the run driver as a
 * child process — the scale-out shape's worker, forked with this process's environment —
 * so their work has its own event loop (and core, where there is one). It is started again
 * when it dies, and ends when this process ends (worker.ts exits when the IPC channel closes,
 * even after a SIGKILL here). PGlite cannot do this: its database lives in the one process.
 */
export function startWorkerChild(): WorkerChild {
  const log = moduleLogger("worker-child");
  let child: ChildProcess | null = null;
  let stopping = false;
  let restartMs = RESTART_FIRST_MS;
  let restartTimer: ReturnType<typeof setTimeout> | null = null;

  const nodeOptions = process.env.NODE_OPTIONS;
  const start = () => {
    const startedAt = Date.now();
    const forked = fork(WORKER_ENTRY, {
      execArgv: withoutInspector(process.execArgv),
      env: {
        ...process.env,
        ...(nodeOptions?.includes("--inspect")
          ? { NODE_OPTIONS: withoutInspector(nodeOptions.split(" ")).join(" ") }
          : {}),
        [WORKER_CHILD_ENV]: String(process.pid),
      },
    });
    child = forked;
    try {
      if (forked.pid) setPriority(forked.pid, Math.min(19, getPriority() + WORKER_NICE));
    } catch (error) {
      log.warn({ err: error }, "could not lower the worker's CPU priority");
    }
    let ended = false;
    const end = (how: Record<string, unknown>) => {
      if (ended) return;
      ended = true;
      if (child === forked) child = null;
      if (stopping) return;
      if (Date.now() - startedAt >= HEALTHY_AFTER_MS) restartMs = RESTART_FIRST_MS;
      log.error(how, `the generation worker ended; starting it again in ${restartMs / 1000} s`);
      restartTimer = setTimeout(start, restartMs);
      restartMs = Math.min(restartMs * 2, RESTART_MAX_MS);
    };
    forked.once("exit", (code, signal) => end({ code, signal }));
    // A fork that could not start has no exit to come; other errors (a failed kill) do not end it.
    forked.on("error", (error) => {
      if (forked.pid === undefined) end({ err: error });
      else log.warn({ err: error }, "the generation worker's process reported an error");
    });
  };
  start();

  return {
    async stop() {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill("SIGTERM");
      const killer = setTimeout(() => running.kill("SIGKILL"), STOP_GRACE_MS);
      await exited;
      clearTimeout(killer);
    },
  };
}
