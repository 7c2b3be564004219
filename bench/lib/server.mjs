import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { sleep } from "./stats.mjs";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const ENTRY = join(ROOT, "apps/server/src/entrypoints/all-in-one.ts");
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

/** Every process this run started, so an interrupted run leaves none behind. */
const children = new Set();
export function track(child) {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}
export function stopChildren() {
  for (const child of children) child.kill("SIGKILL");
}

/** The server's core and the browser's/load generator's core, when there are two or more. */
export const CPUS = { server: "0", client: "1" };

let nextPort = 4500 + (process.pid % 100);
/** A free loopback port in 4500–4599 (the range this suite may use). */
export async function freePort() {
  for (let tries = 0; tries < 100; tries++) {
    const port = nextPort;
    nextPort = nextPort >= 4599 ? 4500 : nextPort + 1;
    const free = await new Promise((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error("no free port in 4500-4599");
}

/** `taskset -c <cpu>` in front of a command when taskset exists and the machine has 2+ cores. */
export function pinned(cpu, command, args) {
  if (canPin()) return ["taskset", ["-c", cpu, command, ...args]];
  return [command, args];
}
export const canPin = () => existsSync("/usr/bin/taskset") && cpus().length >= 2;

/** True when PostgreSQL answers at TEST_DATABASE_URL (or the machine's default). */
export async function postgresAvailable() {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function admin(sql) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh PostgreSQL database for one server; `drop()` removes it. */
export async function createPostgresDatabase() {
  const name = `atelier_bench_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  await admin(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}

/**
 * The real all-in-one server (API, web app from `webRoot`, worker) as its own process on
 * the server core, with PGlite in a temporary DATA_DIR or a fresh PostgreSQL database.
 */
export async function startServer({ webRoot, db = "pglite", env = {}, publicUrl = true } = {}) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "atelier-bench-"));
  const database = db === "postgres" ? await createPostgresDatabase() : null;
  const url = `http://127.0.0.1:${port}`;
  const fullEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123",
    RATE_LIMIT_SIGN_IN_PER_MINUTE: "100000",
    RATE_LIMIT_UPLOADS_PER_MINUTE: "100000",
    // Quotas are the server suite's to test; a benchmark measures speed, not refusals.
    CONCURRENT_JOBS_PER_USER: "100000",
    CONCURRENT_JOBS_PER_ANONYMOUS: "100000",
    CONCURRENT_JOBS_PER_ANONYMOUS_ADDRESS: "100000",
    ANONYMOUS_GENERATIONS_PER_MINUTE: "100000",
    ...(publicUrl ? { PUBLIC_URL: url } : {}),
    ...(webRoot ? { WEB_ROOT: webRoot } : {}),
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  };
  // BENCH_SERVER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof": profile the server.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const [command, args] = pinned(CPUS.server, process.execPath, [
    ...nodeArgs,
    "--import",
    "tsx",
    ENTRY,
  ]);
  const child = spawn(command, args, {
    cwd: ROOT,
    env: fullEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = once(child, "exit");
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not answer /api/health in 90 s:\n${output}`);
    }
    await sleep(200);
  }
  return {
    url,
    port,
    pid: child.pid,
    db: database ? "postgres" : "pglite",
    databaseUrl: database?.url ?? null,
    dataDir,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(timer);
      }
      await database?.drop().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Cookie header value from a response's Set-Cookie lines. */
function cookiesOf(response) {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

/** Signs a new user up by the API, then in (sign-up opens no session); answers the cookie header. */
export async function signUp(url, prefix = "bench") {
  const email = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  const post = (path) =>
    fetch(`${url}/api/auth/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: url },
      body: JSON.stringify({ email, password: "correct horse battery", name: prefix }),
    });
  const ok = async (response, what) => {
    if (!response.ok)
      throw new Error(`${what} failed: ${response.status} ${await response.text()}`);
    return response;
  };
  await ok(await post("sign-up/email"), "sign-up");
  return { cookie: cookiesOf(await ok(await post("sign-in/email"), "sign-in")), email };
}

/** A JSON call with a session cookie; throws on non-2xx. */
export async function api(url, cookie, method, path, body) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      origin: url,
      cookie,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}
