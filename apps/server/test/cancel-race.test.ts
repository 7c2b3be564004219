import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../src/db/schema.ts";
import { runStep, type StepDeps } from "../src/jobs/steps.ts";
import type { GenerationProvider } from "../src/providers/provider.ts";
import { TestClient } from "./helpers/client.ts";
import type { JobStatus } from "./helpers/jobs.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

/**
 * A cancel that lands while a worker's step is reading the provider: the step, which read the
 * job before the cancel, must not write it back to a live status. Steps are driven by hand
 * (no worker runs here) with a provider whose status read waits until released.
 */
describe("a cancel during a status read", () => {
  let server: TestServer;
  let client: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    client = new TestClient(server.url);
    await client.signUp("cancel-race@example.com");
  });
  afterAll(() => server.close());

  it("stays cancelled: the late status read does not bring the job back", async () => {
    const started = await client.json<{ requestId: string }>("POST", "/api/generate/flux-pro", {
      nodeId: "node-race",
      inputs: { prompt: "a lighthouse" },
    });
    expect(started.status).toBe(202);
    const id = started.body.requestId;
    const generation = await server.ctx.generation();
    const local = generation.providers.get("local") as GenerationProvider;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reading = () => {};
    const read = new Promise<void>((resolve) => {
      reading = resolve;
    });
    const slow: GenerationProvider = {
      ...local,
      status: async () => {
        reading();
        await gate;
        return { status: "IN_PROGRESS", queuePosition: null, progress: 50, logs: [] };
      },
    };
    let next: string | null = null;
    const deps: StepDeps = {
      db: server.ctx.database.db,
      providers: {
        ...generation.providers,
        get: (provider) => (provider === "local" ? slow : generation.providers.get(provider)),
      },
      sink: {
        db: server.ctx.database.db,
        store: server.ctx.store,
        fetcher: generation.fetcher,
        publicUrl: server.url,
      },
      schedule: async (_jobId, token) => {
        next = token;
      },
      webhookUrl: () => null,
      log: { warn: () => undefined, error: () => undefined },
    };
    const [job] = await server.ctx.database.db.select().from(jobs).where(eq(jobs.id, id));
    await runStep(deps, id, job?.runner ?? ""); // submits, schedules the first status read
    expect(next).not.toBeNull();
    const polling = runStep(deps, id, next as unknown as string);
    await read;

    const cancelled = await client.json<JobStatus>("POST", "/api/queue/cancel", { requestId: id });
    expect(cancelled.body.status).toBe("CANCELLED");
    release();
    await polling;
    const status = await client.json<JobStatus>("POST", "/api/queue/status", { requestId: id });
    expect(status.body.status).toBe("CANCELLED");
  });
});
