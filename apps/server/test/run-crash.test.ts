import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunView } from "@atelier/core";
import { afterAll, describe, expect, it } from "vitest";
import { type FakeFal, type StatusStep, startFakeFal } from "./fakes/fal-server.ts";
import { TestClient } from "./helpers/client.ts";
import { createPostgresDatabaseUrl, TEST_DB_KIND } from "./helpers/database.ts";
import { type ServerProcess, startServerProcess } from "./helpers/process.ts";
import { chainGraph } from "./helpers/runs.ts";
import { freePort } from "./helpers/server.ts";

type RunAnswer = { run: RunView };

/** Each fal job: queued, running for `polls` status polls (100 ms apart), then done. */
const working = (polls: number): StatusStep[] => [
  { status: "IN_QUEUE", position: 1 },
  ...Array.from({ length: polls }, () => ({ status: "IN_PROGRESS" })),
  { status: "COMPLETED" },
];

/**
 * The acceptance of server-side runs: the all-in-one server is killed (SIGKILL) while fal
 * runs the second step of a three-step chain; started again on the same data, it finishes the
 * run, and fal was asked exactly once per step (the step's job is found again by its key,
 * and polled where it was).
 */
describe("a run survives its server being killed", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "atelier-run-crash-"));
  let fal: FakeFal;
  let server: ServerProcess | null = null;
  let logs = "";
  let dropDatabase: () => Promise<void> = async () => undefined;
  afterAll(async () => {
    await server?.stop();
    await fal?.close();
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (env: Record<string, string>) => {
    const started = await startServerProcess("all-in-one", env);
    logs += "--- server started ---\n";
    started.child.stdout?.on("data", (chunk: Buffer) => {
      logs += chunk.toString();
    });
    started.child.stderr?.on("data", (chunk: Buffer) => {
      logs += chunk.toString();
    });
    return started;
  };

  it("completes after a restart mid-run, one submit per step", async () => {
    fal = await startFakeFal();
    const port = await freePort();
    const env: Record<string, string> = {
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      AUTH_SECRET: "run-crash-test-secret-run-crash-test-secret",
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
    // In submit order: the image (fal's default png result), the video, the upscaled video.
    const video = { status: 200, body: { video: { url: fal.mediaUrl("clip.mp4") } } };
    fal.script("next", working(10));
    fal.script("next", working(40), video);
    fal.script("next", working(10), video);

    server = await start(env);
    const client = new TestClient(server.url);
    await client.signUp("run-crash@example.com");
    const created = await client.json<RunAnswer>("POST", "/api/runs", { graph: chainGraph() });
    expect(created.status).toBe(202);
    const runId = created.body.run.id;
    const read = async () => (await client.json<RunAnswer>("GET", `/api/runs/${runId}`)).body.run;

    // The second step is at fal and being polled (its request id is stored): kill then.
    await expect
      .poll(() => fal.counters.status[fal.jobs[1]?.requestId ?? ""] ?? 0, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(3);
    const before = await read();
    expect(before.nodes.map((node) => [node.id, node.status])).toEqual([
      ["image", "completed"],
      ["video", "running"],
      ["upscale", "queued"],
    ]);
    server.child.kill("SIGKILL");
    expect(await server.exited).toBe("SIGKILL");
    const submitsAtKill = { ...fal.counters.submits };

    server = await start(env);
    let run = await read();
    const deadline = Date.now() + 60_000;
    while (!["completed", "failed", "cancelled"].includes(run.status) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      run = await read();
    }
    const state = `run: ${JSON.stringify(run, null, 2)}\nfal submits at kill: ${JSON.stringify(
      submitsAtKill,
    )}\nfal jobs: ${JSON.stringify(
      fal.jobs.map((job) => job.endpoint),
    )}\nfal submits: ${JSON.stringify(fal.counters.submits)}\nserver logs:\n${logs}`;
    expect(run.status, state).toBe("completed");
    expect(
      run.nodes.map((node) => [node.id, node.status, node.attempt]),
      state,
    ).toEqual([
      ["image", "completed", 0],
      ["video", "completed", 0],
      ["upscale", "completed", 0],
    ]);
    // fal was asked once per step, and only once in all for each.
    expect(fal.counters.submits, state).toEqual({
      "fal-ai/flux-pro/v1.1": 1,
      "fal-ai/bytedance/seedance/v1/pro/image-to-video": 1,
      "fal-ai/topaz/upscale/video": 1,
    });
    expect(fal.counters.created, state).toBe(3);
    // Each step's job is the one fal ran for it, and the results are ours to serve.
    for (const node of run.nodes) {
      const job = await client.json<{ status: string }>("POST", "/api/queue/status", {
        requestId: node.requestId,
      });
      expect(job.body.status, node.id).toBe("COMPLETED");
    }
    const upscaled = String(run.nodes[2]?.outputs?.videoUrl);
    expect(upscaled.startsWith(`${server.url}/api/media/file/`), upscaled).toBe(true);
    expect((await fetch(upscaled)).status).toBe(200);
  }, 150_000);
});
