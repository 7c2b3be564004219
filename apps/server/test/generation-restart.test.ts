import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type FakeFal, startFakeFal } from "./fakes/fal-server.ts";
import { TestClient } from "./helpers/client.ts";
import { createPostgresDatabaseUrl, TEST_DB_KIND } from "./helpers/database.ts";
import { waitForJob } from "./helpers/jobs.ts";
import { type ServerProcess, startServerProcess } from "./helpers/process.ts";
import { freePort } from "./helpers/server.ts";

/**
 * The worker is killed (SIGKILL) while fal runs the job; started again, it picks the job up
 * where it was: polled to completion, its media stored once, and fal asked only once.
 */
describe("a generation survives its worker being killed", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "atelier-restart-"));
  let fal: FakeFal;
  let server: ServerProcess | null = null;
  let dropDatabase: () => Promise<void> = async () => undefined;
  afterAll(async () => {
    await server?.stop();
    await fal?.close();
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("completes once after a restart mid-job", async () => {
    fal = await startFakeFal();
    const port = await freePort();
    const env: Record<string, string> = {
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      AUTH_SECRET: "restart-test-secret-restart-test-secret-01",
      FAL_KEY: fal.key,
      FAL_QUEUE_URL: fal.url,
      OUTBOUND_ALLOW_HOSTS: new URL(fal.url).host,
      PROVIDER_POLL_MS: "100",
      JOB_STALE_AFTER_MS: "1000",
    };
    if (TEST_DB_KIND === "postgres") {
      const database = await createPostgresDatabaseUrl();
      env.DATABASE_URL = database.url;
      dropDatabase = database.drop;
    }
    // Running for 40 polls, then done.
    fal.script("next", [
      { status: "IN_QUEUE", position: 1 },
      ...Array.from({ length: 40 }, () => ({ status: "IN_PROGRESS" })),
      { status: "COMPLETED" },
    ]);
    server = await startServerProcess("all-in-one", env);
    const client = new TestClient(server.url);
    await client.signUp("restart@example.com");
    const started = await client.json<{ requestId: string }>("POST", "/api/generate/flux-pro", {
      nodeId: "survivor",
      inputs: { prompt: "a phoenix" },
    });
    expect(started.status).toBe(202);
    await expect
      .poll(() => fal.counters.status[fal.jobs[0]?.requestId ?? ""] ?? 0, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(3);
    server.child.kill("SIGKILL");
    await server.exited;

    server = await startServerProcess("all-in-one", env);
    const job = await waitForJob(client, started.body.requestId);
    expect(job.status).toBe("COMPLETED");
    expect(fal.counters.created).toBe(1);
    expect(Object.values(fal.counters.submits).reduce((sum, count) => sum + count, 0)).toBe(1);
    const stored = await client.json<{ media: { node_id: string }[] }>(
      "GET",
      "/api/media?workflowId=temporary",
    );
    expect(stored.body.media.filter((row) => row.node_id === "survivor")).toHaveLength(1);
    const image = await fetch(String(job.outputs?.imageUrl));
    expect(image.status).toBe(200);
  }, 120_000);
});
