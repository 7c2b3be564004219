import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

const SERVER_ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit signal or code when the process ends. */
  exited: Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts `src/entrypoints/<entry>.ts` as its own Node process (as production runs it) and
 * resolves once it reports it is ready: listening (web) or waiting for jobs (worker).
 */
export async function startServerProcess(
  entry: "web" | "worker" | "all-in-one",
  env: Record<string, string>,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", `src/entrypoints/${entry}.ts`], {
    cwd: SERVER_ROOT,
    env: { ...process.env, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = once(child, "exit").then(([code, signal]) => String(signal ?? code));
  let output = "";
  const readyText = entry === "worker" ? "Atelier worker ready" : "Server listening at";
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(readyText)) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    void exited.then((how) =>
      reject(new Error(`server exited (${how}) before listening:\n${output}`)),
    );
  });
  await ready;
  return {
    url: `http://127.0.0.1:${env.PORT}`,
    child,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
