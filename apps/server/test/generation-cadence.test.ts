import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../src/db/schema.ts";
import { WEBHOOK_SAFETY_POLL_MS } from "../src/jobs/cadence.ts";
import { runStep, type StepDeps } from "../src/jobs/steps.ts";
import { type FakeFal, falEnv, startFakeFal } from "./fakes/fal-server.ts";
import { TestClient } from "./helpers/client.ts";
import { waitForJob } from "./helpers/jobs.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

/**
 * Status reads the server makes to (a fake) fal per job, counted: none but one after the
 * webhook when a webhook is registered, the backoff schedule when polling. The polling
 * cases drive the job's steps by hand on a fake clock, so no test waits real minutes.
 */
describe("status reads per job against a fake fal", () => {
  let fal: FakeFal;
  let server: TestServer;
  let client: TestClient;
  const silent = { warn: () => undefined, error: () => undefined };

  beforeAll(async () => {
    fal = await startFakeFal();
    // No PROVIDER_POLL_MS: the real cadence. PUBLIC_URL is set, so fal is given a webhook.
    server = await startTestServer({
      ...falEnv(fal),
    });
    client = new TestClient(server.url);
    await client.signUp("cadence@example.com");
  });
  afterAll(async () => {
    await server.close();
    await fal.close();
  });

  const start = async (prompt: string) => {
    fal.script("next", [{ status: "IN_PROGRESS" }]);
    const started = await client.json<{ requestId: string }>("POST", "/api/generate/flux-pro", {
      nodeId: `node-${prompt}`,
      inputs: { prompt },
    });
    expect(started.status).toBe(202);
    return started.body.requestId;
  };
  const row = async (id: string) =>
    (await server.ctx.database.db.select().from(jobs).where(eq(jobs.id, id)))[0];

  /** Runs a job's steps as the engine would, on a fake clock; answers its status reads. */
  async function driveOnFakeClock(id: string, options: { endsAfterMs: number; hooked: boolean }) {
    const generation = await server.ctx.generation();
    let clock = Date.now();
    let pending: { token: string; delayMs: number } | null = null;
    const delays: number[] = [];
    const deps: StepDeps = {
      db: server.ctx.database.db,
      providers: generation.providers,
      sink: {
        db: server.ctx.database.db,
        store: server.ctx.store,
        fetcher: generation.fetcher,
        publicUrl: server.url,
      },
      schedule: async (_jobId, token, delayMs) => {
        pending = { token, delayMs };
      },
      webhookUrl: (job) =>
        options.hooked ? `${server.url}/api/callbacks/fal/${job.callbackToken}` : null,
      now: () => clock,
      log: silent,
    };
    const first = await row(id);
    await runStep(deps, id, first?.runner ?? "");
    const requestId = fal.jobs.at(-1)?.requestId ?? "";
    const submittedAt = clock;
    for (let steps = 0; pending && steps < 100; steps++) {
      const { token, delayMs }: { token: string; delayMs: number } = pending;
      pending = null;
      delays.push(delayMs);
      clock += delayMs;
      if (clock - submittedAt >= options.endsAfterMs)
        fal.script(requestId, [{ status: "COMPLETED" }]);
      await runStep(deps, id, token);
    }
    return { requestId, delays, reads: fal.counters.status[requestId] ?? 0 };
  }

  it("polling: a 60 s job is read 7 times (≤ 8), not every 3 s", async () => {
    const id = await start("sixty seconds");
    const { reads, delays } = await driveOnFakeClock(id, { endsAfterMs: 60_000, hooked: false });
    expect(reads).toBe(7);
    expect(delays).toEqual([3000, 3000, 4800, 8640, 15_000, 15_000, 15_000]);
    expect((await row(id))?.status).toBe("COMPLETED");
  });

  it("polling: a 5 s image is read twice and finishes at 6 s", async () => {
    const id = await start("five seconds");
    const { reads, delays } = await driveOnFakeClock(id, { endsAfterMs: 5000, hooked: false });
    expect(reads).toBe(2);
    expect(delays).toEqual([3000, 3000]);
    expect((await row(id))?.status).toBe("COMPLETED");
  });

  it("with a webhook: no polling, the safety net reads a job whose webhook was lost", async () => {
    const id = await start("lost webhook");
    const { reads, delays } = await driveOnFakeClock(id, { endsAfterMs: 60_000, hooked: true });
    expect(delays).toEqual([WEBHOOK_SAFETY_POLL_MS]);
    expect(reads).toBe(1);
    expect((await row(id))?.status).toBe("COMPLETED");
  });

  it("with a webhook: exactly one status read, after the webhook, through the engine", async () => {
    const engine = (await server.ctx.generation()).engine;
    await engine.work({ concurrency: 2 });
    const id = await start("webhook");
    // Submitted, then its next read scheduled (two writes): wait for the second.
    const scheduled = (job: Awaited<ReturnType<typeof row>>) =>
      job?.step === "submitted" && job.heartbeatAt.getTime() > Date.now() + 60_000;
    let submitted = await row(id);
    for (let tries = 0; tries < 200 && !scheduled(submitted); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      submitted = await row(id);
    }
    const sent = fal.jobs.at(-1);
    expect(sent?.webhookUrl).toMatch(/\/api\/callbacks\/fal\/[a-f0-9]{48}$/);
    const requestId = sent?.requestId ?? "";
    expect(submitted?.providerRequestId).toBe(requestId);
    // The next scheduled read is the safety net's, minutes away: the sweeper leaves it alone.
    expect(submitted?.heartbeatAt.getTime()).toBeGreaterThan(Date.now() + 60_000);
    expect(await engine.sweep()).toBe(0);
    expect(fal.counters.status[requestId] ?? 0).toBe(0);

    fal.script(requestId, [{ status: "COMPLETED" }]);
    expect(await fal.sendWebhook({ url: sent?.webhookUrl ?? "", requestId })).toEqual([200]);
    const job = await waitForJob(client, id);
    expect(job.status).toBe("COMPLETED");
    expect(fal.counters.status[requestId]).toBe(1);
    // fal retries deliveries: a duplicate changes nothing and reads nothing.
    expect(
      await fal.sendWebhook({ url: sent?.webhookUrl ?? "", requestId, variant: "duplicate" }),
    ).toEqual([200, 200]);
    expect(fal.counters.status[requestId]).toBe(1);
    expect(fal.counters.results[requestId]).toBe(1);
  });
});
