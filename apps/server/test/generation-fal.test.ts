import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../src/db/schema.ts";
import { FAL_USER_MESSAGES } from "../src/providers/fal/fal-provider.ts";
import { type FakeFal, startFakeFal } from "./fakes/fal-server.ts";
import { TestClient } from "./helpers/client.ts";
import { waitForJob } from "./helpers/jobs.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

describe("generation through the real fal adapter against a fake fal", () => {
  let fal: FakeFal;
  let server: TestServer;
  let client: TestClient;
  beforeAll(async () => {
    fal = await startFakeFal();
    const falHost = new URL(fal.url).host;
    server = await startTestServer({
      FAL_KEY: fal.key,
      FAL_QUEUE_URL: fal.url,
      FAL_WEBHOOK_JWKS_URL: `${fal.url}/.well-known/jwks.json`,
      OUTBOUND_ALLOW_HOSTS: falHost,
      PROVIDER_POLL_MS: "30",
    });
    await (await server.ctx.generation()).engine.work({ concurrency: 2 });
    client = new TestClient(server.url);
    await client.signUp("fal-user@example.com");
  });
  afterAll(async () => {
    await server.close();
    await fal.close();
  });

  const run = (prompt: string, model = "flux-pro") =>
    client.json<{ requestId: string; endpoint: string }>("POST", `/api/generate/${model}`, {
      nodeId: `node-${prompt}`,
      inputs: { prompt },
    });

  it("runs a job to completion and keeps its media in our storage", async () => {
    const before = fal.counters.created;
    const started = await run("a lighthouse at dusk");
    expect(started.status).toBe(202);
    expect(started.body.endpoint).toBe("fal-ai/flux-pro/v1.1");
    const job = await waitForJob(client, started.body.requestId);
    expect(job.status).toBe("COMPLETED");
    expect(fal.counters.created - before).toBe(1);
    const sent = fal.jobs.at(-1);
    expect(sent?.input).toMatchObject({ prompt: "a lighthouse at dusk" });
    expect(sent?.webhookUrl).toMatch(/\/api\/callbacks\/fal\/[a-f0-9]{48}$/);
    const url = String(job.outputs?.imageUrl);
    expect(url.startsWith(`${server.url}/api/media/file/`)).toBe(true);
    const stored = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect((await sharp(stored).metadata()).format).toBe("png");
  });

  it("accepts a signed webhook and refuses forged and stale ones", async () => {
    fal.script("next", [{ status: "IN_PROGRESS" }, { status: "COMPLETED" }]);
    const started = await run("webhook");
    const job = await waitForJob(client, started.body.requestId);
    expect(job.status).toBe("COMPLETED");
    const { requestId, webhookUrl } = fal.jobs.at(-1) as { requestId: string; webhookUrl: string };
    expect(await fal.sendWebhook({ url: webhookUrl, requestId })).toEqual([200]);
    // fal retries deliveries: a duplicate is accepted and changes nothing.
    expect(await fal.sendWebhook({ url: webhookUrl, requestId, variant: "duplicate" })).toEqual([
      200, 200,
    ]);
    expect(await fal.sendWebhook({ url: webhookUrl, requestId, variant: "forged" })).toEqual([401]);
    expect(await fal.sendWebhook({ url: webhookUrl, requestId, variant: "stale" })).toEqual([401]);
    const after = await client.json<{ status: string; outputs: unknown }>(
      "POST",
      "/api/queue/status",
      {
        requestId: started.body.requestId,
      },
    );
    expect(after.body).toEqual(
      expect.objectContaining({ status: "COMPLETED", outputs: job.outputs }),
    );
  });

  const cases: {
    name: string;
    arrange: () => void;
    status: string;
    error?: string;
    created: number;
  }[] = [
    {
      name: "a 503 on submit: outcome unknown, not sent again",
      arrange: () => fal.fault("submit", { kind: "http", status: 503 }),
      status: "FAILED",
      error: FAL_USER_MESSAGES.outcomeUnknown,
      created: 0,
    },
    {
      name: "a 429 on submit: waits and sends once more",
      arrange: () => fal.fault("submit", { kind: "rate_limit", retryAfter: "0" }),
      status: "COMPLETED",
      created: 1,
    },
    {
      name: "5xx and malformed status answers: polling goes on",
      arrange: () => {
        fal.fault("status", { kind: "http", status: 500 }, 2);
        fal.fault("status", { kind: "malformed" });
      },
      status: "COMPLETED",
      created: 1,
    },
    {
      name: "a 422 result after COMPLETED: the model's own message",
      arrange: () =>
        fal.script("next", [{ status: "COMPLETED" }], {
          status: 422,
          body: {
            detail: [{ loc: ["body", "prompt"], msg: "Prompt is too long", type: "value_error" }],
          },
        }),
      status: "FAILED",
      error: "Prompt is too long",
      created: 1,
    },
    {
      name: "an expired result",
      arrange: () => fal.fault("result", { kind: "expired" }),
      status: "FAILED",
      error: FAL_USER_MESSAGES.expired,
      created: 1,
    },
    {
      name: "an output URL at a private address: nothing is fetched",
      arrange: () => fal.fault("result", { kind: "private_url" }),
      status: "FAILED",
      error: "Generation failed",
      created: 1,
    },
  ];
  for (const scenario of cases) {
    it(`ends right with exactly one job at fal: ${scenario.name}`, async () => {
      const created = fal.counters.created;
      scenario.arrange();
      const started = await run(scenario.name);
      const job = await waitForJob(client, started.body.requestId);
      expect(job.status).toBe(scenario.status);
      if (scenario.error) expect(job.error).toBe(scenario.error);
      expect(fal.counters.created - created).toBe(scenario.created);
      if (scenario.status === "FAILED") expect(job.outputs).toBeUndefined();
    });
  }

  it("cancels a running job at fal", async () => {
    fal.script(
      "next",
      Array.from({ length: 10_000 }, () => ({ status: "IN_PROGRESS" })),
    );
    const submitted = fal.jobs.length;
    const started = await run("cancel me");
    const cancels = fal.counters.cancels;
    const done = waitForJob(client, started.body.requestId);
    // Cancel once the job is running at fal (its status has been asked for).
    await expect
      .poll(() => fal.counters.status[fal.jobs[submitted]?.requestId ?? ""] ?? 0)
      .toBeGreaterThan(0);
    const cancelled = await client.json<{ status: string }>("POST", "/api/queue/cancel", {
      requestId: started.body.requestId,
    });
    expect(cancelled.body.status).toBe("CANCELLED");
    expect((await done).status).toBe("CANCELLED");
    expect(fal.counters.cancels - cancels).toBe(1);
  });

  it("a job cancelled while its submit is on the way ends done, and frees its provider slot", async () => {
    fal.fault("submit", { kind: "delay", ms: 1500 });
    const cancels = fal.counters.cancels;
    const started = await run("cancelled mid-submit");
    const stepOf = async () => {
      const [row] = await server.ctx.database.db
        .select({ step: jobs.step, status: jobs.status })
        .from(jobs)
        .where(eq(jobs.id, started.body.requestId));
      return row;
    };
    await expect.poll(async () => (await stepOf())?.step).toBe("submitting");
    const cancelled = await client.json<{ status: string }>("POST", "/api/queue/cancel", {
      requestId: started.body.requestId,
    });
    expect(cancelled.body.status).toBe("CANCELLED");
    // The submit comes back: fal's job is cancelled too, and ours is no longer in flight
    // (an in-flight step would hold one of the provider's slots for good).
    await expect.poll(() => fal.counters.cancels - cancels, { timeout: 10_000 }).toBe(1);
    await expect.poll(stepOf).toEqual({ step: "done", status: "CANCELLED" });
  });

  it("fails a job still running after 15 minutes with SPEC's message", async () => {
    fal.script(
      "next",
      Array.from({ length: 10_000 }, () => ({ status: "IN_PROGRESS" })),
    );
    const started = await run("forever");
    const done = waitForJob(client, started.body.requestId);
    await server.ctx.database.db
      .update(jobs)
      .set({ createdAt: new Date(Date.now() - 16 * 60 * 1000) })
      .where(eq(jobs.id, started.body.requestId));
    const job = await done;
    expect(job.status).toBe("FAILED");
    expect(job.error).toBe("Generation timed out after 15 minutes. Please try again.");
  });
});
