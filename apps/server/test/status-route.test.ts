import { WORKFLOW_ERRORS } from "@atelier/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./helpers/client.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

/**
 * `POST /api/queue/status` answers a poll whose session and job answer are both cached
 * without the async path: it must answer exactly what the full path does, and refuse the
 * same requests with the same messages once everything is cached.
 */
describe("the job status route once its caches are warm", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOCAL_PROVIDER_STEP_MS: "60000" });
  });
  afterAll(() => server.close());

  async function signedInWithJob(email: string) {
    const client = new TestClient(server.url);
    await client.signUp(email);
    const started = await client.json<{ requestId: string }>("POST", "/api/generate/flux-pro", {
      nodeId: "n1",
      inputs: { prompt: "a lighthouse" },
    });
    expect(started.status).toBe(202);
    return { client, requestId: started.body.requestId };
  }

  it("answers the same JSON every time, then the change once the job changes", async () => {
    const { client, requestId } = await signedInWithJob("route-same@example.com");
    const first = await client.json<{ requestId: string; status: string }>(
      "POST",
      "/api/queue/status",
      { requestId },
    );
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ requestId, status: "IN_QUEUE" });
    for (let poll = 0; poll < 3; poll++) {
      const again = await client.json("POST", "/api/queue/status", { requestId, extra: 1 });
      expect(again.status).toBe(200);
      expect(again.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(again.body).toEqual(first.body);
    }
    const cancelled = await client.json("POST", "/api/queue/cancel", { requestId });
    expect(cancelled.body).toMatchObject({ status: "CANCELLED" });
    const after = await client.json("POST", "/api/queue/status", { requestId });
    expect(after.body).toMatchObject({ requestId, status: "CANCELLED" });
  });

  it("keeps 400, 401 and 404 as they were", async () => {
    const { client, requestId } = await signedInWithJob("route-errors@example.com");
    expect((await client.json("POST", "/api/queue/status", { requestId })).status).toBe(200);
    // The session and this job's answer are cached now.
    for (const body of [{}, { requestId: "" }, { requestId: "x".repeat(201) }, { requestId: 7 }]) {
      const refused = await client.json<{ error: string }>("POST", "/api/queue/status", body);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/^Invalid request: requestId: /);
    }
    const stranger = new TestClient(server.url);
    await stranger.signUp("route-stranger@example.com");
    const foreign = await stranger.json("POST", "/api/queue/status", { requestId });
    expect(foreign).toMatchObject({ status: 404, body: { error: "Job not found" } });
    const signedOut = new TestClient(server.url);
    const refused = await signedOut.json("POST", "/api/queue/status", { requestId });
    expect(refused).toMatchObject({
      status: 401,
      body: { error: WORKFLOW_ERRORS.notAuthenticated },
    });
    // Not signed in and a bad body: the session is checked first, as before.
    const both = await signedOut.json("POST", "/api/queue/status", {});
    expect(both.status).toBe(401);
  });
});
