import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeReplicate, startFakeReplicate } from "./fakes/replicate-server.ts";
import { TestClient } from "./helpers/client.ts";
import { type JobStatus, waitForJob } from "./helpers/jobs.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

/**
 * Replicate behind the real engine: the fake on loopback, REPLICATE_API_TOKEN set and fal
 * unset, so Stable Audio runs through its `replicate` variant; PUBLIC_URL is set (the test
 * server's), so each prediction is created with our webhook.
 */
async function setUp(fake: FakeReplicate, safetyPollMs: number) {
  const server = await startTestServer({
    REPLICATE_API_TOKEN: fake.key,
    REPLICATE_BASE_URL: fake.url,
    OUTBOUND_ALLOW_HOSTS: new URL(fake.url).host,
    JOB_WEBHOOK_SAFETY_POLL_MS: String(safetyPollMs),
  });
  await (await server.ctx.generation()).engine.work({ concurrency: 2 });
  const client = new TestClient(server.url);
  await client.signUp(`replicate-${safetyPollMs}@example.com`);
  return { server, client };
}

async function start(client: TestClient, nodeId: string) {
  const started = await client.json<{ requestId: string; endpoint: string; error?: string }>(
    "POST",
    "/api/generate/stable-audio",
    { nodeId, inputs: { prompt: "rain on a tin roof" } },
  );
  expect(started.status, started.body.error).toBe(202);
  expect(started.body.endpoint).toBe("stability-ai/stable-audio-2.5");
  return started.body.requestId;
}

async function until<T>(read: () => T | undefined, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const expectStoredAudio = async (server: TestServer, job: JobStatus) => {
  const url = String(job.outputs?.audioUrl);
  expect(url.startsWith(`${server.url}/api/media/file/`)).toBe(true);
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^audio\//);
  expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
};

describe("generation through Replicate: webhooks (fake on loopback)", () => {
  let fake: FakeReplicate;
  let server: TestServer;
  let client: TestClient;
  beforeAll(async () => {
    fake = await startFakeReplicate();
    // No safety-net read within the test: only the webhook can move the job on.
    ({ server, client } = await setUp(fake, 600_000));
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it("a signed webhook completes the job; bad and stale ones are refused and change nothing", async () => {
    const requestId = await start(client, "node-hooked");
    const created = await until(() => fake.requests[0]);
    expect(created.body.webhook).toMatch(
      new RegExp(`^${server.url}/api/callbacks/replicate/[a-f0-9]{48}$`),
    );
    expect(created.body.input).toMatchObject({ prompt: "rain on a tin roof", duration: 190 });
    fake.script(created.id, [{ status: "succeeded" }]);

    expect(await fake.sendWebhook(created.id, { bad: true })).toBe(401);
    const stale = Math.floor(Date.now() / 1000) - 600;
    expect(await fake.sendWebhook(created.id, { timestamp: stale })).toBe(401);
    const still = await client.json<JobStatus>("POST", "/api/queue/status", { requestId });
    expect(still.body.status).not.toBe("COMPLETED");
    expect(fake.counters.polls[created.id]).toBeUndefined();

    // 404 until the job holds the prediction id (the submit's answer is stored just after).
    let answered = await fake.sendWebhook(created.id);
    for (let i = 0; answered === 404 && i < 50; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      answered = await fake.sendWebhook(created.id);
    }
    expect(answered).toBe(200);
    const job = await waitForJob(client, requestId);
    expect(job.status, job.error ?? "").toBe("COMPLETED");
    await expectStoredAudio(server, job);
    expect(fake.counters.secretReads).toBe(1);
  });

  it("a webhook for a token that is not a Replicate job's is not found", async () => {
    const res = await fetch(`${server.url}/api/callbacks/replicate/${"a".repeat(48)}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(404);
  });
});

describe("generation through Replicate: a dropped webhook (fake on loopback)", () => {
  let fake: FakeReplicate;
  let server: TestServer;
  let client: TestClient;
  beforeAll(async () => {
    fake = await startFakeReplicate();
    // The webhook never comes: the safety-net read (its shortest) finishes the job.
    ({ server, client } = await setUp(fake, 1000));
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it("runs Stable Audio to stored media by polling, with progress from the logs", async () => {
    fake.script("next", [
      { status: "processing", logs: " 40%|████      | 4/10" },
      { status: "succeeded", logs: "100%|██████████| 10/10" },
    ]);
    const requestId = await start(client, "node-polled");
    const job = await waitForJob(client, requestId);
    expect(job.status, job.error ?? "").toBe("COMPLETED");
    await expectStoredAudio(server, job);
    const id = fake.requests[0]?.id ?? "";
    expect(fake.counters.polls[id]).toBeGreaterThanOrEqual(2);
    expect(job.logs.map((l) => l.message)).toContain("40%|████      | 4/10");
    expect(fake.counters.created).toBe(1);
  }, 20_000);

  it("a failed prediction fails the job with the model's error", async () => {
    fake.script("next", [{ status: "failed", error: "Prompt flagged as unsafe" }]);
    const requestId = await start(client, "node-failed");
    const job = await waitForJob(client, requestId);
    expect(job.status).toBe("FAILED");
    expect(job.error).toBe("Prompt flagged as unsafe");
  }, 20_000);
});
