import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { s3StartProblem } from "../src/entrypoints/startup.ts";
import { ConfigError, loadConfig } from "../src/env.ts";
import { isPrivateBind, metricsAccess } from "../src/http/metrics-access.ts";
import { TestClient } from "./helpers/client.ts";
import { waitForJob } from "./helpers/jobs.ts";
import { parseMetrics, sampleValue } from "./helpers/metrics.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

const TOKEN = "metrics-token-0123456789abcdef";

describe("GET /api/health and GET /api/ready", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("answers alive at once, and ready when the database, queue and storage answer", async () => {
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });
    const ready = await fetch(`${server.url}/api/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ok: true, db: true, queue: true, storage: true });
  });

  it("is not ready (503, naming the part) while storage is down, yet still alive", async () => {
    const ping = vi.spyOn(server.ctx.store, "ping").mockRejectedValue(new Error("disk gone"));
    try {
      const ready = await fetch(`${server.url}/api/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ ok: false, db: true, queue: true, storage: false });
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    } finally {
      ping.mockRestore();
    }
  });

  it("has no /metrics on a public bind without METRICS_TOKEN", async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    const guessed = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(guessed.status).toBe(404);
  });
});

describe("who may read /metrics", () => {
  it("is open on a loopback or private bind, closed on a public one", () => {
    for (const host of ["127.0.0.1", "::1", "localhost", "10.0.0.5", "192.168.1.2", "fd00::1"])
      expect(isPrivateBind(host), host).toBe(true);
    for (const host of ["0.0.0.0", "::", "203.0.113.7", "example.com"])
      expect(isPrivateBind(host), host).toBe(false);
    expect(metricsAccess({ metricsToken: null, host: "127.0.0.1" }, undefined)).toBe("allowed");
    expect(metricsAccess({ metricsToken: null, host: "0.0.0.0" }, undefined)).toBe("off");
  });

  it("asks for the token wherever the server listens once METRICS_TOKEN is set", () => {
    for (const host of ["127.0.0.1", "0.0.0.0"]) {
      const settings = { metricsToken: TOKEN, host };
      expect(metricsAccess(settings, `Bearer ${TOKEN}`)).toBe("allowed");
      expect(metricsAccess(settings, undefined)).toBe("refused");
      expect(metricsAccess(settings, `Bearer ${TOKEN}x`)).toBe("refused");
      expect(metricsAccess(settings, TOKEN)).toBe("refused");
    }
  });

  it("refuses a short METRICS_TOKEN at start-up, naming it", () => {
    expect(() => loadConfig({ METRICS_TOKEN: "short", AUTH_SECRET: "x".repeat(32) })).toThrow(
      /METRICS_TOKEN — must be at least 16 characters/,
    );
  });
});

describe("an S3 bucket that fails at start-up", () => {
  const s3 = { bucket: "media", endpoint: "http://127.0.0.1:9", region: "us-east-1" };

  it("is one line naming the settings to check, by what went wrong", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    const unreachable = s3StartProblem(refused, s3);
    expect(unreachable).toBeInstanceOf(ConfigError);
    expect(unreachable.message).toBe(
      "Cannot reach the S3 bucket media at S3_ENDPOINT (127.0.0.1:9: ECONNREFUSED) — check S3_ENDPOINT, S3_BUCKET and the S3 keys",
    );
    const keys = Object.assign(new Error("denied"), {
      name: "InvalidAccessKeyId",
      $metadata: { httpStatusCode: 403 },
    });
    expect(s3StartProblem(keys, s3).message).toBe(
      "The S3 bucket media at S3_ENDPOINT (127.0.0.1:9: InvalidAccessKeyId) refused the keys — check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY",
    );
    const aws = s3StartProblem(Object.assign(new Error("?"), { name: "NoSuchBucket" }), {
      bucket: "media",
      region: "eu-west-1",
    });
    expect(aws.message).toBe(
      "Cannot reach the S3 bucket media in S3_REGION eu-west-1 (NoSuchBucket) — check S3_REGION, S3_BUCKET and the S3 keys",
    );
  });
});

describe("GET /metrics with METRICS_TOKEN", () => {
  let server: TestServer;
  let alice: TestClient;
  const scrape = async () => {
    const response = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await response.text();
    return { text, samples: parseMetrics(text) };
  };

  beforeAll(async () => {
    server = await startTestServer({ METRICS_TOKEN: TOKEN, LOCAL_PROVIDER_STEP_MS: "10" });
    await (await server.ctx.generation()).engine.work({ concurrency: 1 });
    alice = new TestClient(server.url);
    await alice.signUp("metrics@example.com");
  });
  afterAll(() => server.close());

  it("refuses a scrape without the token or with a wrong one (401)", async () => {
    const bare = await fetch(`${server.url}/metrics`);
    expect(bare.status).toBe(401);
    expect(bare.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const wrong = await fetch(`${server.url}/metrics`, {
      headers: { authorization: "Bearer not-the-token-at-all" },
    });
    expect(wrong.status).toBe(401);
  });

  it("counts the event streams open on the process", async () => {
    const created = await alice.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
      name: "Streamed",
      data: makeWorkflow("Streamed"),
    });
    await vi.waitFor(async () => {
      expect(sampleValue((await scrape()).samples, "atelier_sse_clients")).toBe(0);
    });
    const controller = new AbortController();
    const stream = await fetch(`${server.url}/api/workflows/${created.body.workflow.id}/events`, {
      headers: { cookie: alice.cookieHeader() },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    expect(sampleValue((await scrape()).samples, "atelier_sse_clients")).toBe(1);
    controller.abort();
    await vi.waitFor(async () => {
      expect(sampleValue((await scrape()).samples, "atelier_sse_clients")).toBe(0);
    });
    // A stream is not a latency: its route has no HTTP duration series.
    const { samples } = await scrape();
    expect(
      samples.filter(
        (sample) =>
          sample.name === "http_request_duration_seconds_count" &&
          sample.labels.route === "/api/workflows/:id/events",
      ),
    ).toEqual([]);
  });

  it("after a save and a local run shows saves, route latencies, job counts and queue waits", async () => {
    const created = await alice.json<{ workflow: { id: string; updated_at: string } }>(
      "POST",
      "/api/workflows",
      { name: "Measured", data: makeWorkflow("Measured") },
    );
    const { id } = created.body.workflow;
    const saved = await alice.json("PUT", `/api/workflows/${id}`, {
      name: "Measured",
      data: makeWorkflow("Measured", 3),
      basedOn: created.body.workflow.updated_at,
    });
    expect(saved.status).toBe(200);
    const stale = await alice.json("PUT", `/api/workflows/${id}`, {
      name: "Measured",
      data: makeWorkflow("Measured", 4),
      basedOn: created.body.workflow.updated_at,
    });
    expect(stale.status).toBe(409);
    const started = await alice.json<{ requestId: string }>("POST", "/api/generate/flux-pro", {
      nodeId: "n1",
      inputs: { prompt: "a lighthouse at dusk" },
    });
    expect(started.status).toBe(202);
    expect((await waitForJob(alice, started.body.requestId)).status).toBe("COMPLETED");

    const { text, samples } = await scrape();
    // Jobs, instance-wide from the jobs table: every state of the provider, zeros included.
    expect(sampleValue(samples, "atelier_jobs", { state: "completed", provider: "local" })).toBe(1);
    expect(sampleValue(samples, "atelier_jobs", { state: "failed", provider: "local" })).toBe(0);
    expect(
      sampleValue(samples, "atelier_job_queue_wait_seconds_count", { provider: "local" }),
    ).toBe(1);
    expect(
      sampleValue(samples, "atelier_job_queue_wait_seconds_bucket", {
        provider: "local",
        le: "+Inf",
      }),
    ).toBe(1);
    expect(
      sampleValue(samples, "atelier_job_queue_wait_seconds_sum", { provider: "local" }),
    ).toBeGreaterThanOrEqual(0);
    // Saves by kind and outcome, and the bytes of those stored.
    expect(
      sampleValue(samples, "atelier_workflow_saves_total", { kind: "full", outcome: "saved" }),
    ).toBe(1);
    expect(
      sampleValue(samples, "atelier_workflow_saves_total", { kind: "full", outcome: "conflict" }),
    ).toBe(1);
    expect(
      sampleValue(samples, "atelier_workflow_save_bytes_total", { kind: "full" }),
    ).toBeGreaterThan(1000);
    // HTTP latency by route pattern, never the raw URL.
    expect(
      sampleValue(samples, "http_request_duration_seconds_count", {
        method: "PUT",
        route: "/api/workflows/:id",
        status_code: "200",
      }),
    ).toBe(1);
    expect(
      sampleValue(samples, "http_request_duration_seconds_count", {
        method: "POST",
        route: "/api/generate/:model",
        status_code: "202",
      }),
    ).toBe(1);
    expect(text).not.toContain(id);
    expect(text).not.toContain(started.body.requestId);
    // The process's own figures come along.
    expect(sampleValue(samples, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
  });
});
