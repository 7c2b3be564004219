import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { freePort } from "./helpers/server.ts";

const SERVER_ROOT = fileURLToPath(new URL("..", import.meta.url));
const ENTRY = join(SERVER_ROOT, "src/entrypoints/all-in-one.ts");
// The TypeScript loader by absolute path: the process runs in a folder of its own.
const TSX = pathToFileURL(join(SERVER_ROOT, "../../node_modules/tsx/dist/loader.mjs")).href;

/** The environment without the settings the tests give through `.env`. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  for (const name of ["PORT", "DATA_DIR", "DATABASE_URL", "ENV_FILE"]) delete env[name];
  return { ...env, ...extra };
}

/** Starts the all-in-one server in `cwd`; resolves when it listens or ends. */
function start(cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ["--import", TSX, ENTRY], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk;
  });
  const exited = once(child, "exit").then(([code]) => code as number | null);
  const listening = new Promise<void>((resolve) => {
    child.stdout.on("data", () => {
      if (stdout.includes("Server listening at")) resolve();
    });
  });
  return {
    child,
    exited,
    outcome: Promise.race([listening.then(() => "listening" as const), exited]),
    output: () => ({ stdout, stderr }),
  };
}

describe("starting the server", () => {
  it("reads PORT and DATA_DIR from .env in the folder it starts in", async () => {
    const folder = mkdtempSync(join(tmpdir(), "atelier-env-"));
    const port = await freePort();
    writeFileSync(join(folder, ".env"), `# as .env.example\nPORT=${port}\nDATA_DIR=./kept-here\n`);
    const server = start(folder, cleanEnv({ LOG_LEVEL: "info", WEB_ROOT: folder }));
    try {
      expect(await server.outcome, server.output().stderr).toBe("listening");
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(health.status).toBe(200);
      expect(existsSync(join(folder, "kept-here", "auth-secret"))).toBe(true);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  }, 150_000);

  it("says in one line that a busy port is in use, with no stack", async () => {
    const blocker = createServer();
    blocker.listen(0, "127.0.0.1");
    await once(blocker, "listening");
    const port = (blocker.address() as { port: number }).port;
    const folder = mkdtempSync(join(tmpdir(), "atelier-env-"));
    try {
      const server = start(
        folder,
        cleanEnv({ PORT: String(port), HOST: "127.0.0.1", DATA_DIR: join(folder, "data") }),
      );
      expect(await server.exited).toBe(78);
      expect(server.output().stderr).toBe(`Port ${port} is in use — set PORT\n`);
    } finally {
      blocker.close();
    }
  }, 150_000);

  it("names DATA_DIR when it cannot be written, and ENV_FILE when it is missing", async () => {
    const folder = mkdtempSync(join(tmpdir(), "atelier-env-"));
    writeFileSync(join(folder, "a-file"), "not a folder");
    const dataDir = join(folder, "a-file", "data");
    const unwritable = start(folder, cleanEnv({ DATA_DIR: dataDir }));
    expect(await unwritable.exited).toBe(78);
    expect(unwritable.output().stderr).toBe(
      `DATA_DIR ${dataDir} is not a writable folder — set DATA_DIR\n`,
    );
    const missing = join(folder, "nowhere.env");
    const noFile = start(folder, cleanEnv({ ENV_FILE: missing }));
    expect(await noFile.exited).toBe(78);
    expect(noFile.output().stderr).toBe(
      `ENV_FILE names ${missing}, which does not exist — set ENV_FILE\n`,
    );
  }, 150_000);

  it("names DATABASE_URL when the database cannot be reached, without its password", async () => {
    const folder = mkdtempSync(join(tmpdir(), "atelier-env-"));
    const closed = await freePort();
    const server = start(
      folder,
      cleanEnv({
        DATA_DIR: join(folder, "data"),
        DATABASE_URL: `postgres://atelier:s3cret@127.0.0.1:${closed}/atelier`,
      }),
    );
    expect(await server.exited).toBe(78);
    expect(server.output().stderr).toBe(
      `Cannot reach the database at DATABASE_URL (127.0.0.1:${closed}/atelier: ECONNREFUSED) — check DATABASE_URL\n`,
    );
  }, 150_000);

  it("names the S3 settings when the bucket cannot be reached, without the keys", async () => {
    const folder = mkdtempSync(join(tmpdir(), "atelier-env-"));
    const closed = await freePort();
    const server = start(
      folder,
      cleanEnv({
        DATA_DIR: join(folder, "data"),
        S3_ENDPOINT: `http://127.0.0.1:${closed}`,
        S3_BUCKET: "media",
        S3_ACCESS_KEY_ID: "key-id",
        S3_SECRET_ACCESS_KEY: "s3cret-key",
      }),
    );
    expect(await server.exited).toBe(78);
    // The AWS SDK may first print its own notice about the Node.js version: ours is the last
    // line, and no stack comes with it.
    const { stderr } = server.output();
    expect(stderr.trimEnd().split("\n").at(-1)).toBe(
      `Cannot reach the S3 bucket media at S3_ENDPOINT (127.0.0.1:${closed}: ECONNREFUSED) — check S3_ENDPOINT, S3_BUCKET and the S3 keys`,
    );
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stderr).not.toContain("s3cret-key");
  }, 150_000);
});
