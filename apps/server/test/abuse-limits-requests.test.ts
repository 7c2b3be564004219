import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../src/env.ts";
import { TestClient } from "./helpers/client.ts";
import { type Answer, anonymousClient, expectTooMany } from "./helpers/limits.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

describe("abuse limits: configuration", () => {
  it("has a default for every limit, each one set by its own variable", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "atelier-limits-"));
    expect(loadConfig({ DATA_DIR: dataDir }).limits).toEqual({
      signInPerMinute: 20,
      generationsPerMinute: 60,
      anonymousGenerationsPerMinutePerAddress: 20,
      anonymousGenerationsPerMinute: 10,
      concurrentJobsPerUser: 8,
      concurrentJobsPerAnonymous: 2,
      uploadsPerMinute: 60,
      uploadsPerMinutePerSession: 30,
      uploadBytesPerMinute: 250 * 1024 * 1024,
      uploadBytesPerMinutePerAddress: 1000 * 1024 * 1024,
      anonymousUploadBytesPerDay: 200 * 1024 * 1024,
      anonymousUploadBytesPerDayPerAddress: 1000 * 1024 * 1024,
      eventStreamsPerUser: 16,
      anonymousEventStreamsPerAddress: 32,
      stagedSavesPerUser: 8,
      stagedSaveBytesPerUser: 64 * 1024 * 1024,
      concurrentJobsPerAnonymousAddress: 6,
      budgets: {
        userDailyUsd: null,
        userMonthlyUsd: null,
        anonymousDailyUsdPerAddress: null,
        instanceDailyUsd: null,
        instanceMonthlyUsd: null,
        refuseUnpriced: false,
      },
    });
    const set = loadConfig({
      DATA_DIR: dataDir,
      RATE_LIMIT_SIGN_IN_PER_MINUTE: "1",
      RATE_LIMIT_GENERATIONS_PER_MINUTE: "2",
      RATE_LIMIT_ANONYMOUS_GENERATIONS_PER_MINUTE: "3",
      RATE_LIMIT_UPLOADS_PER_MINUTE: "4",
      RATE_LIMIT_UPLOADS_PER_SESSION_PER_MINUTE: "5",
      UPLOAD_MB_PER_MINUTE: "6",
      UPLOAD_MB_PER_MINUTE_PER_ADDRESS: "7",
      ANONYMOUS_UPLOAD_MB_PER_DAY: "8",
      ANONYMOUS_UPLOAD_MB_PER_DAY_PER_ADDRESS: "9",
      EVENT_STREAMS_PER_USER: "10",
      ANONYMOUS_EVENT_STREAMS_PER_ADDRESS: "11",
      STAGED_SAVES_PER_USER: "12",
      SAVE_STAGING_MB_PER_USER: "13",
      ANONYMOUS_GENERATIONS_PER_MINUTE: "14",
      CONCURRENT_JOBS_PER_USER: "15",
      CONCURRENT_JOBS_PER_ANONYMOUS: "16",
      CONCURRENT_JOBS_PER_ANONYMOUS_ADDRESS: "17",
      BUDGET_USER_DAILY_USD: "18",
      BUDGET_USER_MONTHLY_USD: "19",
      BUDGET_ANONYMOUS_DAILY_USD_PER_ADDRESS: "20",
      BUDGET_INSTANCE_DAILY_USD: "21",
      BUDGET_INSTANCE_MONTHLY_USD: "22.5",
      UNPRICED_RUNS: "refuse",
    }).limits;
    const MB = 1024 * 1024;
    expect(set).toEqual({
      signInPerMinute: 1,
      generationsPerMinute: 2,
      anonymousGenerationsPerMinutePerAddress: 3,
      uploadsPerMinute: 4,
      uploadsPerMinutePerSession: 5,
      uploadBytesPerMinute: 6 * MB,
      uploadBytesPerMinutePerAddress: 7 * MB,
      anonymousUploadBytesPerDay: 8 * MB,
      anonymousUploadBytesPerDayPerAddress: 9 * MB,
      eventStreamsPerUser: 10,
      anonymousEventStreamsPerAddress: 11,
      stagedSavesPerUser: 12,
      stagedSaveBytesPerUser: 13 * MB,
      anonymousGenerationsPerMinute: 14,
      concurrentJobsPerUser: 15,
      concurrentJobsPerAnonymous: 16,
      concurrentJobsPerAnonymousAddress: 17,
      budgets: {
        userDailyUsd: 18,
        userMonthlyUsd: 19,
        anonymousDailyUsdPerAddress: 20,
        instanceDailyUsd: 21,
        instanceMonthlyUsd: 22.5,
        refuseUnpriced: true,
      },
    });
    expect(() => loadConfig({ DATA_DIR: dataDir, EVENT_STREAMS_PER_USER: "0" })).toThrow(
      "EVENT_STREAMS_PER_USER",
    );
  });
});

describe("abuse limits: starting generations", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      RATE_LIMIT_GENERATIONS_PER_MINUTE: "3",
      RATE_LIMIT_ANONYMOUS_GENERATIONS_PER_MINUTE: "4",
    });
  });
  afterAll(() => server.close());

  const start = (client: TestClient, nodeId: string) =>
    client.json<{ requestId: string }>("POST", "/api/generate/flux-pro", {
      nodeId,
      inputs: { prompt: "a red fox" },
    });

  it("lets a user start 3 a minute, then answers 429; status checks still answer", async () => {
    const user = new TestClient(server.url);
    await user.signUp("starter@example.com");
    const started: string[] = [];
    for (const node of ["n1", "n2", "n3"]) {
      const answer = await start(user, node);
      expect(answer.status).toBe(202);
      started.push(answer.body.requestId);
    }
    expectTooMany(
      await start(user, "n4"),
      "Too many generations: at most 3 a minute per user",
      [55, 60],
    );
    const check = await user.json("POST", "/api/generate/runway-video", {
      action: "check_status",
      task_id: started[0],
    });
    expect(check.status).toBe(200);
  });

  it("counts anonymous sessions of one address together (4 a minute)", async () => {
    const first = await anonymousClient(server.url);
    const second = await anonymousClient(server.url);
    for (const client of [first, first, second, second])
      expect((await start(client, "a")).status).toBe(202);
    expectTooMany(
      await start(first, "a"),
      "Too many generations from this address: at most 4 a minute for anonymous sessions (sign in to run more)",
      [55, 60],
    );
    // A signed-in user from the same address has their own allowance.
    const member = new TestClient(server.url);
    await member.signUp("member@example.com");
    expect((await start(member, "m")).status).toBe(202);
  });
});

describe("abuse limits: event streams open at once", () => {
  let server: TestServer;
  const open: { controller: AbortController; response: Response }[] = [];
  beforeAll(async () => {
    server = await startTestServer({
      EVENT_STREAMS_PER_USER: "3",
      ANONYMOUS_EVENT_STREAMS_PER_ADDRESS: "4",
    });
  });
  afterAll(async () => {
    for (const stream of open) stream.controller.abort();
    await server.close();
  });

  /** Opens a stream and keeps it open; a refused one answers its JSON. */
  const stream = async (client: TestClient, path: string): Promise<Answer & { close(): void }> => {
    const controller = new AbortController();
    const response = await fetch(new URL(path, server.url), {
      headers: { cookie: client.cookieHeader() },
      signal: controller.signal,
    });
    // Kept referenced: fetch cancels the body of a response that is garbage-collected.
    if (response.status === 200) open.push({ controller, response });
    const body = response.status === 200 ? null : await response.json();
    return {
      status: response.status,
      body,
      headers: response.headers,
      close: () => controller.abort(),
    };
  };

  it("refuses a user's 4th stream (queue and workflow events together) until one closes", async () => {
    const user = new TestClient(server.url);
    await user.signUp("streams@example.com");
    const created = await user.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
      name: "Watched",
      data: makeWorkflow("Watched"),
    });
    const workflowEvents = `/api/workflows/${created.body.workflow.id}/events`;
    const first = await stream(user, "/api/queue/events");
    expect(first.status).toBe(200);
    expect((await stream(user, "/api/queue/events")).status).toBe(200);
    expect((await stream(user, workflowEvents)).status).toBe(200);
    const limit = "Too many event streams open: at most 3 per user (close another tab)";
    expectTooMany(await stream(user, workflowEvents), limit, [30, 30]);
    expectTooMany(await stream(user, "/api/queue/events"), limit, [30, 30]);
    first.close();
    await vi.waitFor(async () => expect((await stream(user, workflowEvents)).status).toBe(200));
  });

  it("counts anonymous sessions of one address together (4 at once)", async () => {
    const first = await anonymousClient(server.url);
    const second = await anonymousClient(server.url);
    for (const client of [first, first, first, second])
      expect((await stream(client, "/api/queue/events")).status).toBe(200);
    expectTooMany(
      await stream(second, "/api/queue/events"),
      "Too many event streams open from this address: at most 4 for anonymous sessions (sign in, or close another tab)",
      [30, 30],
    );
  });
});

describe("abuse limits: large saves staged per user", () => {
  let server: TestServer;
  let alice: TestClient;
  let workflowId: string;
  beforeAll(async () => {
    server = await startTestServer({ STAGED_SAVES_PER_USER: "2", SAVE_STAGING_MB_PER_USER: "1" });
    alice = new TestClient(server.url);
    await alice.signUp("stager@example.com");
    const created = await alice.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
      name: "Big",
      data: makeWorkflow("Big"),
    });
    workflowId = created.body.workflow.id;
  });
  afterAll(() => server.close());

  /** A batch of two nodes, about `kb` kilobytes in all. */
  const nodes = (kb: number) => makeWorkflow("Big", 2, kb * 512).nodes;
  const stage = (client: TestClient, saveId: string, index: number, kb = 1) =>
    client.json("PUT", `/api/workflows/${workflowId}/saves/${saveId}/batches/${index}`, {
      nodes: nodes(kb),
    });

  it("refuses a 3rd open save, and takes it once one is dropped", async () => {
    expect((await stage(alice, "save-aaaa", 0)).status).toBe(200);
    expect((await stage(alice, "save-bbbb", 0)).status).toBe(200);
    expectTooMany(
      await stage(alice, "save-cccc", 0),
      "Too many large saves in progress: at most 2 per user",
      [590, 600],
    );
    // More batches of an open save are fine.
    expect((await stage(alice, "save-aaaa", 1)).status).toBe(200);
    const dropped = await alice.json("DELETE", `/api/workflows/${workflowId}/saves/save-aaaa`);
    expect(dropped.status).toBe(200);
    expect((await stage(alice, "save-cccc", 0)).status).toBe(200);
  });

  it("refuses batches beyond 1 MB per user; a retried batch replaces its bytes", async () => {
    expect((await stage(alice, "save-cccc", 1, 600)).status).toBe(200);
    expect((await stage(alice, "save-cccc", 1, 600)).status).toBe(200);
    expectTooMany(
      await stage(alice, "save-bbbb", 1, 600),
      "Too many large saves in progress: at most 1 MB per user",
      [590, 600],
    );
    // Another user has their own allowance.
    const bob = new TestClient(server.url);
    await bob.signUp("other-stager@example.com");
    const own = await bob.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
      name: "Bob's",
      data: makeWorkflow("Bob's"),
    });
    const bobs = await bob.json(
      "PUT",
      `/api/workflows/${own.body.workflow.id}/saves/save-dddd/batches/0`,
      { nodes: nodes(600) },
    );
    expect(bobs.status).toBe(200);
  });
});
