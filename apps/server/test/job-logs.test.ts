import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../src/db/schema.ts";
import { JOB_LOG_LINES, newLogLines } from "../src/jobs/logs.ts";
import { runStep, type StepDeps } from "../src/jobs/steps.ts";
import { createLocalProvider } from "../src/providers/local/local-provider.ts";
import { TestClient } from "./helpers/client.ts";
import type { JobStatus } from "./helpers/jobs.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

const STEP_MS = 400;
/** The local provider's log of a run: one line per progress step. */
const RENDERING_LOG = [1, 2, 3, 4].map((step) => `Rendering offline (step ${step} of 4)`);
const messagesOf = (job: JobStatus) => job.logs.map((log) => log.message);

/**
 * A local job's log as the user sees it. The job's steps are driven by hand on a fake clock
 * that the local provider also reads, so its status is read at the engine's real pace (twice
 * per simulated step) without waiting for it.
 */
describe("job logs", () => {
  let server: TestServer;
  let client: TestClient;
  beforeAll(async () => {
    server = await startTestServer({ LOCAL_PROVIDER_STEP_MS: String(STEP_MS) });
    client = new TestClient(server.url);
    await client.signUp("logs@example.com");
  });
  afterAll(() => server.close());

  async function runOnFakeClock(jobId: string) {
    const generation = await server.ctx.generation();
    let clock = Date.now();
    const local = createLocalProvider({
      readMedia: async () => {
        throw new Error("no media inputs here");
      },
      stepMs: STEP_MS,
      now: () => clock,
    });
    let pending: { token: string; delayMs: number } | null = null;
    const deps: StepDeps = {
      db: server.ctx.database.db,
      providers: {
        ...generation.providers,
        get: (id) => (id === "local" ? local : generation.providers.get(id)),
      },
      sink: {
        db: server.ctx.database.db,
        store: server.ctx.store,
        fetcher: generation.fetcher,
        publicUrl: server.url,
      },
      schedule: async (_jobId, token, delayMs) => {
        pending = { token, delayMs };
      },
      webhookUrl: () => null,
      now: () => clock,
      log: { warn: () => undefined, error: () => undefined },
    };
    const [job] = await server.ctx.database.db.select().from(jobs).where(eq(jobs.id, jobId));
    await runStep(deps, jobId, job?.runner ?? "");
    for (let steps = 0; pending && steps < 100; steps++) {
      const { token, delayMs }: { token: string; delayMs: number } = pending;
      pending = null;
      clock += delayMs;
      await runStep(deps, jobId, token);
    }
  }

  /** The user's job stream (GET /api/queue/events), open: the job payloads it carries. */
  async function openJobStream() {
    const controller = new AbortController();
    const response = await fetch(new URL("/api/queue/events", server.url), {
      headers: { cookie: client.cookieHeader() },
      signal: controller.signal,
    });
    if (!response.body) throw new Error("no event stream");
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    const next = async (): Promise<{ event: string; data: JobStatus }> => {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const [head = "", data = "{}"] = buffer.slice(0, end).split("\ndata: ");
          buffer = buffer.slice(end + 2);
          return { event: head.replace("event: ", ""), data: JSON.parse(data) };
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("event stream ended");
        buffer += value;
      }
    };
    while ((await next()).event !== "ready");
    return {
      /** Every payload of the job up to its end. */
      async until(jobId: string, ended: (job: JobStatus) => boolean) {
        const seen: JobStatus[] = [];
        for (;;) {
          const { event, data } = await next();
          if (event !== "job" || data.requestId !== jobId) continue;
          seen.push(data);
          if (ended(data)) break;
        }
        controller.abort();
        return seen;
      },
    };
  }

  it("lists each log line of a local job once, in order, in its status, the job list and the event stream", async () => {
    const started = await client.json<{ requestId: string }>("POST", "/api/generate/flux-pro", {
      nodeId: "node-logs",
      inputs: { prompt: "a lighthouse at dusk" },
    });
    expect(started.status).toBe(202);
    const id = started.body.requestId;
    const stream = await openJobStream();
    await runOnFakeClock(id);
    const streamed = await stream.until(id, (job) => job.status === "COMPLETED");

    // Soft: each way the user reads the job is checked even when another fails.
    const status = await client.json<JobStatus>("POST", "/api/queue/status", { requestId: id });
    expect(status.body.status).toBe("COMPLETED");
    expect.soft(messagesOf(status.body), "POST /api/queue/status").toEqual(RENDERING_LOG);

    const list = await client.json<{ jobs: JobStatus[] }>("GET", "/api/queue/jobs");
    const listed = list.body.jobs.find((job) => job.requestId === id) as JobStatus;
    expect.soft(messagesOf(listed), "GET /api/queue/jobs").toEqual(RENDERING_LOG);

    // Every pushed change carries the log so far: each line once, in order.
    for (const job of streamed)
      expect
        .soft(messagesOf(job), `event at ${job.status}`)
        .toEqual(RENDERING_LOG.slice(0, job.logs.length));
    expect.soft(messagesOf(streamed.at(-1) as JobStatus), "last event").toEqual(RENDERING_LOG);
  });
});

describe("new log lines of a status read", () => {
  const lines = (...messages: string[]) => messages.map((message) => ({ message }));

  it("adds a line a provider repeats on every read once, and again after another line", () => {
    expect(newLogLines(lines("step 1"), lines("step 1"))).toEqual([]);
    expect(newLogLines(lines("step 1"), lines("step 2"))).toEqual(lines("step 2"));
    expect(newLogLines(lines("throttled", "running"), lines("throttled"))).toEqual(
      lines("throttled"),
    );
  });

  it("adds only the new lines of a provider that sends its whole log, past the lines kept", () => {
    const whole = Array.from({ length: 70 }, (_, index) => ({
      message: `line ${index}`,
      timestamp: new Date(index * 1000).toISOString(),
    }));
    expect(newLogLines(whole.slice(0, 3), whole.slice(0, 5))).toEqual(whole.slice(3, 5));
    const kept = whole.slice(60 - JOB_LOG_LINES, 60);
    expect(newLogLines(kept, whole)).toEqual(whole.slice(60));
    expect(newLogLines(kept, whole.slice(0, 60))).toEqual([]);
  });
});
