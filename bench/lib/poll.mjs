import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { track } from "./server.mjs";

const pollers = fileURLToPath(new URL("./pollers.mjs", import.meta.url));

/**
 * Q1's load generator (lib/pollers.mjs) as its own process, on the client core; answers its
 * JSON summary (p50, p99, requests a second, errors). Q1, Q4 and R2 share it.
 */
export async function poll(config) {
  const child = track(
    spawn(process.execPath, [pollers, JSON.stringify(config)], {
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );
  let out = "";
  child.stdout.on("data", (part) => {
    out += part;
  });
  const [code] = await once(child, "exit");
  if (code !== 0) throw new Error(`poller process exited ${code}`);
  return JSON.parse(out.trim().split("\n").at(-1));
}
