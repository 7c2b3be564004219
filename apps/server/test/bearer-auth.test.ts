import { WORKFLOW_ERRORS } from "@atelier/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LAST_USED_RESOLUTION_MS } from "../src/auth/api-token-users.ts";
import { apiTokens } from "../src/db/schema.ts";
import { bearerClient } from "./helpers/bearer.ts";
import { TestClient } from "./helpers/client.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

async function newToken(client: TestClient, name = "Script") {
  const created = await client.json<{ id: string; token: string }>("POST", "/api/tokens", { name });
  expect(created.status).toBe(201);
  return created.body;
}

describe("Authorization: Bearer <token> on the API", () => {
  let server: TestServer;
  let alice: TestClient;
  let bob: TestClient;
  let workflowId: string;
  beforeAll(async () => {
    server = await startTestServer({ LOCAL_PROVIDER_STEP_MS: "10" });
    await (await server.ctx.generation()).engine.work({ concurrency: 2 });
    alice = new TestClient(server.url);
    bob = new TestClient(server.url);
    await alice.signUp("alice@example.com");
    await bob.signUp("bob@example.com");
    const saved = await alice.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
      name: "Alice's",
      data: makeWorkflow("Alice's"),
    });
    workflowId = saved.body.workflow.id;
  });
  afterAll(() => server.close());

  it("answers for the token's user: workflows, generation, the status poll, job list", async () => {
    const { token } = await newToken(alice);
    const headless = bearerClient(server.url, token);
    const list = await headless<{ workflows: { id: string }[] }>("GET", "/api/workflows");
    expect(list.status).toBe(200);
    expect(list.body.workflows.map((row) => row.id)).toEqual([workflowId]);
    expect((await headless("GET", `/api/workflows/${workflowId}`)).status).toBe(200);
    expect((await headless("GET", "/api/auth/admin-status")).status).toBe(200);

    // A state change without Origin: a token is not ambient, so the origin check exempts it.
    const started = await headless<{ requestId: string }>("POST", "/api/generate/gemini-text", {
      nodeId: "n1",
      workflowId,
      inputs: { prompt: "hello" },
    });
    expect(started.status).toBe(202);
    const { requestId } = started.body;
    let status = "";
    for (let tries = 0; tries < 200 && status !== "COMPLETED"; tries++) {
      const polled = await headless<{ status: string }>("POST", "/api/queue/status", {
        requestId,
      });
      expect(polled.status).toBe(200);
      status = polled.body.status;
      if (status !== "COMPLETED") await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(status).toBe("COMPLETED");
    const jobs = await headless<{ jobs: { requestId: string }[] }>("GET", "/api/queue/jobs");
    expect(jobs.body.jobs.map((job) => job.requestId)).toContain(requestId);
    // The job is Alice's: her browser session sees it too, Bob does not.
    expect((await alice.json("POST", "/api/queue/status", { requestId })).status).toBe(200);
    expect((await bob.json("POST", "/api/queue/status", { requestId })).status).toBe(404);
  });

  it("takes the token's user over any cookie sent along, reads included", async () => {
    const { token } = await newToken(alice);
    const headless = bearerClient(server.url, token);
    const withBobsCookie = { cookie: bob.cookieHeader() };
    const list = await headless<{ workflows: { id: string }[] }>(
      "GET",
      "/api/workflows",
      undefined,
      withBobsCookie,
    );
    expect(list.body.workflows.map((row) => row.id)).toEqual([workflowId]);
    // Better Auth's own session read sees no cookie either.
    const session = await headless("GET", "/api/auth/get-session", undefined, withBobsCookie);
    expect(session.body).toBeNull();
    const folder = await headless<{ folder: { id: string } }>(
      "POST",
      "/api/folders",
      { name: "Made by a script" },
      withBobsCookie,
    );
    expect(folder.status).toBe(201);
    const own = await alice.json<{ folders: { id: string }[] }>("GET", "/api/folders");
    expect(own.body.folders.map((row) => row.id)).toContain(folder.body.folder.id);
  });

  it("refuses unknown and revoked tokens with 401, on the cached routes too", async () => {
    const { id, token } = await newToken(alice);
    const headless = bearerClient(server.url, token);
    expect((await headless("GET", "/api/workflows")).status).toBe(200);
    expect((await alice.json("DELETE", `/api/tokens/${id}`)).status).toBe(200);
    const unauthenticated = { error: WORKFLOW_ERRORS.notAuthenticated };
    for (const client of [
      headless,
      bearerClient(server.url, "atl_unknown"),
      bearerClient(server.url, ""),
    ]) {
      expect(await client("GET", "/api/workflows")).toMatchObject({
        status: 401,
        body: unauthenticated,
      });
      expect(await client("POST", "/api/queue/status", { requestId: "x" })).toMatchObject({
        status: 401,
        body: unauthenticated,
      });
      expect((await client("GET", "/api/queue/jobs")).status).toBe(401);
      // Never taken as "signed out" where signed-out callers may act (temporary uploads).
      const form = new FormData();
      form.append("workflowId", "temporary");
      form.append("file", new Blob([new Uint8Array(8)], { type: "image/png" }), "a.png");
      const upload = await fetch(new URL("/api/media", server.url), {
        method: "POST",
        headers: { authorization: `Bearer ${token}x` },
        body: form,
      });
      expect(upload.status).toBe(401);
    }
    // Even with a valid session cookie alongside, a bad token is refused.
    const mixed = await headless("GET", "/api/workflows", undefined, {
      cookie: alice.cookieHeader(),
    });
    expect(mixed.status).toBe(401);
  });

  it("records last use at most once a minute per token", async () => {
    const { id, token } = await newToken(alice);
    const lastUsed = async () =>
      (
        await server.ctx.database.db
          .select({ at: apiTokens.lastUsedAt })
          .from(apiTokens)
          .where(eq(apiTokens.id, id))
      )[0]?.at ?? null;
    expect(await lastUsed()).toBeNull();
    const headless = bearerClient(server.url, token);
    await headless("GET", "/api/workflows");
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    await headless("GET", "/api/workflows");
    await headless("GET", "/api/folders");
    expect((await lastUsed())?.getTime()).toBe(first?.getTime());
    // Older than the resolution: the next use writes it again.
    const old = new Date(Date.now() - LAST_USED_RESOLUTION_MS - 1000);
    await server.ctx.database.db
      .update(apiTokens)
      .set({ lastUsedAt: old })
      .where(eq(apiTokens.id, id));
    await headless("GET", "/api/workflows");
    expect((await lastUsed())?.getTime()).toBeGreaterThan(old.getTime() + 1000);
    const listed = await alice.json<{ tokens: { id: string; lastUsedAt: string | null }[] }>(
      "GET",
      "/api/tokens",
    );
    expect(listed.body.tokens.find((row) => row.id === id)?.lastUsedAt).not.toBeNull();
  });
});

describe("Bearer requests and rate limits", () => {
  let server: TestServer;
  afterAll(() => server.close());

  it("counts a token's generations against its user's limit", async () => {
    server = await startTestServer({ RATE_LIMIT_GENERATIONS_PER_MINUTE: "2" });
    const alice = new TestClient(server.url);
    await alice.signUp("limited@example.com");
    const { token } = await newToken(alice);
    const start = (n: number) =>
      bearerClient(server.url, token)("POST", "/api/generate/gemini-text", {
        nodeId: `n${n}`,
        inputs: { prompt: "x" },
      });
    expect((await start(1)).status).toBe(202);
    expect((await start(2)).status).toBe(202);
    expect((await start(3)).status).toBe(429);
    // Same user, same budget: the browser session is over the limit too.
    const browser = await alice.json("POST", "/api/generate/gemini-text", {
      nodeId: "n4",
      inputs: { prompt: "x" },
    });
    expect(browser.status).toBe(429);
  });
});
