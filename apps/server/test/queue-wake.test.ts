import { afterEach, describe, expect, it, vi } from "vitest";
import { RUN_QUEUE } from "../src/commands/runs/run-driver.ts";
import { GENERATION_QUEUE } from "../src/jobs/engine.ts";
import { announceQueued, type QueueEvent } from "../src/realtime/events.ts";
import { TestClient } from "./helpers/client.ts";
import { chainGraph } from "./helpers/runs.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

/** The next wake announced for `queue` on the server's database. */
function nextWake(server: TestServer, queue: string): Promise<QueueEvent> {
  return new Promise((resolve) => {
    const stop = server.ctx.queueWakes.subscribe(queue, (event) => {
      stop();
      resolve(event);
    });
  });
}

// A web process without workers (the scale-out shape, or the all-in-one server on PostgreSQL,
// whose worker is a child process) tells the workers elsewhere of new work at once.
describe("queue wakes between processes", () => {
  let server: TestServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it("a process without workers announces a new generation and a run's kick", async () => {
    server = await startTestServer();
    const client = new TestClient(server.url);
    await client.signUp("waker@example.com");

    const generationWake = nextWake(server, GENERATION_QUEUE);
    const started = await client.json("POST", "/api/generate/flux-pro", {
      nodeId: "n1",
      inputs: { prompt: "a lantern" },
    });
    expect(started.status).toBe(202);
    expect(await generationWake).toEqual({ queue: GENERATION_QUEUE });

    const runWake = nextWake(server, RUN_QUEUE);
    const run = await client.json("POST", "/api/runs", { graph: chainGraph() });
    expect(run.status).toBe(202);
    expect(await runWake).toEqual({ queue: RUN_QUEUE });
  });

  it("a working process wakes its sleeping queue workers when another announces work", async () => {
    server = await startTestServer();
    await server.ctx.work({ concurrency: 2 });
    const { boss } = await server.ctx.generation();
    const woken: string[] = [];
    const allWoken = new Promise<void>((resolve) => {
      vi.spyOn(boss, "notifyWorker").mockImplementation((id) => {
        woken.push(id);
        if (woken.length === 3) resolve();
      });
    });
    // As a web process would, on the same database.
    await announceQueued(server.ctx.database.db, { queue: GENERATION_QUEUE });
    await announceQueued(server.ctx.database.db, { queue: RUN_QUEUE });
    await allWoken;
    // Both generation workers (concurrency 2), then the run driver's one.
    expect(new Set(woken.slice(0, 2)).size).toBe(2);
    expect(woken[2]).not.toBe(woken[0]);
    expect(woken[2]).not.toBe(woken[1]);
  });
});
