import { type ChildProcess, spawn } from "node:child_process";

export interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a shell script under bash as a user would from a terminal: only the environment
 * given (plus PATH, HOME and TMPDIR), no proxy for loopback. `started` sees the child.
 */
export function runScript(
  script: string,
  args: string[],
  env: Record<string, string>,
  started?: (child: ChildProcess) => void,
): Promise<ScriptResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", [script, ...args], {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? "/tmp",
        TMPDIR: process.env.TMPDIR ?? "/tmp",
        NO_PROXY: "127.0.0.1,localhost",
        no_proxy: "127.0.0.1,localhost",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
    started?.(child);
  });
}
