import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { getPriority, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { withoutInspector } from "../src/entrypoints/worker-child.ts";
import { TestClient } from "./helpers/client.ts";
import { createPostgresDatabaseUrl, TEST_DB_KIND } from "./helpers/database.ts";
import { waitForJob } from "./helpers/jobs.ts";
import { type ServerProcess, startServerProcess } from "./helpers/process.ts";
import { freePort } from "./helpers/server.ts";

/** The processes `pid` started (Linux: its main thread's children). */
function childrenOf(pid: number): number[] {
  const path = `/proc/${pid}/task/${pid}/children`;
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8").split(" ").filter(Boolean).map(Number);
}

/** True while `pid` runs (a zombie waiting to be reaped has ended). */
function running(pid: number): boolean {
  const path = `/proc/${pid}/stat`;
  if (!existsSync(path)) return false;
  const state = readFileSync(path, "utf8").split(") ")[1]?.[0];
  return state !== "Z" && state !== "X";
}

/** The pids of the workers that say they are alive (instance health's table). */
async function workerPids(url: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      "select pid from workers where seen_at > now() - interval '1 minute'",
    );
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

// The all-in-one server on PostgreSQL runs its generation worker as a child process, so a
// run's orchestration never holds up an HTTP answer (bench R2).
describe.runIf(TEST_DB_KIND === "postgres")("the all-in-one server's worker process", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "atelier-worker-child-"));
  let database: { url: string; drop(): Promise<void> };
  let server: ServerProcess | null = null;
  let env: () => Promise<Record<string, string>>;
  beforeAll(async () => {
    database = await createPostgresDatabaseUrl();
    env = async () => {
      const port = await freePort();
      return {
        PORT: String(port),
        HOST: "127.0.0.1",
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
        AUTH_SECRET: "worker-child-secret-worker-child-secret-01",
        LOCAL_PROVIDER_STEP_MS: "20",
      };
    };
  });
  afterEach(async () => {
    await server?.stop();
    server = null;
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The server's one child, once it has started it. */
  const workerOf = async (parent: ServerProcess, not?: number): Promise<number> => {
    const pid = parent.child.pid as number;
    const others = () => childrenOf(pid).filter((child) => child !== not);
    await expect.poll(others, { timeout: 15_000 }).toHaveLength(1);
    return others()[0] as number;
  };

  const generate = async (client: TestClient, nodeId: string) => {
    const started = await client.json<{ requestId: string }>("POST", "/api/generate/flux-pro", {
      nodeId,
      inputs: { prompt: "a harbour" },
    });
    expect(started.status).toBe(202);
    return (await waitForJob(client, started.body.requestId)).status;
  };

  it("works the queue at a lower priority, is restarted when it dies, and ends with the server", async () => {
    server = await startServerProcess("all-in-one", await env());
    const serverPid = server.child.pid as number;
    const worker = await workerOf(server);
    // Lowered right after the fork.
    await expect.poll(() => getPriority(worker)).toBe(Math.min(19, getPriority(serverPid) + 10));
    const client = new TestClient(server.url);
    await client.signUp("worker-child@example.com");
    expect(await generate(client, "first")).toBe("COMPLETED");
    const alive = await workerPids(database.url);
    expect(alive).toContain(worker);
    expect(alive).not.toContain(serverPid);

    // Killed, it is started again, and the new one works.
    process.kill(worker, "SIGKILL");
    const second = await workerOf(server, worker);
    expect(second).not.toBe(worker);
    expect(await generate(client, "second")).toBe("COMPLETED");

    // The server killed outright: its worker notices the closed channel and ends too.
    server.child.kill("SIGKILL");
    await server.exited;
    server = null;
    await expect.poll(() => running(second), { timeout: 15_000 }).toBe(false);
  }, 90_000);

  it("stops its worker before it exits on SIGTERM", async () => {
    server = await startServerProcess("all-in-one", await env());
    const worker = await workerOf(server);
    await server.stop();
    expect(await server.exited).toBe("0");
    server = null;
    expect(running(worker)).toBe(false);
  }, 60_000);
});

describe("the worker's node flags", () => {
  it("drop the server's inspector, whose port the worker could not take", () => {
    expect(
      withoutInspector([
        "--import",
        "tsx",
        "--inspect=127.0.0.1:9339",
        "--inspect-port",
        "9230",
        "--inspect-brk",
        "--max-old-space-size=4096",
      ]),
    ).toEqual(["--import", "tsx", "--max-old-space-size=4096"]);
  });
});
