import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./helpers/client.ts";
import { waitForJob } from "./helpers/jobs.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

describe("signed-out browsers run generations with an anonymous session", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOCAL_PROVIDER_STEP_MS: "10" });
    await (await server.ctx.generation()).engine.work({ concurrency: 2 });
  });
  afterAll(() => server.close());

  it("runs a job anonymously, keeps cloud storage closed, and hands the work over on sign-up", async () => {
    const browser = new TestClient(server.url);
    const signedIn = await browser.json<{ user: { isAnonymous: boolean } }>(
      "POST",
      "/api/auth/sign-in/anonymous",
      {},
    );
    expect(signedIn.status).toBe(200);
    const session = await browser.json<{ user: { isAnonymous: boolean } }>(
      "GET",
      "/api/auth/get-session",
    );
    expect(session.body.user.isAnonymous).toBe(true);

    const started = await browser.json<{ requestId: string }>("POST", "/api/generate/flux-pro", {
      nodeId: "n1",
      inputs: { prompt: "a quiet harbour" },
    });
    expect(started.status).toBe(202);
    const job = await waitForJob(browser, started.body.requestId);
    expect(job.status).toBe("COMPLETED");

    // Cloud workflows and folders stay for accounts.
    expect((await browser.json("GET", "/api/workflows")).status).toBe(401);
    expect((await browser.json("POST", "/api/folders", { name: "Mine" })).status).toBe(401);
    expect((await browser.json("GET", "/api/auth/admin-status")).status).toBe(401);

    // Signing up in the same browser keeps the job and its files.
    const account = await browser.signUp("was-anonymous@example.com");
    expect(account.user.email).toBe("was-anonymous@example.com");
    const jobs = await browser.json<{ jobs: { requestId: string }[] }>("GET", "/api/queue/jobs");
    expect(jobs.body.jobs.map((entry) => entry.requestId)).toEqual([started.body.requestId]);
    const media = await browser.json<{ media: { node_id: string }[] }>(
      "GET",
      "/api/media?workflowId=temporary",
    );
    expect(media.body.media.map((row) => row.node_id)).toEqual(["n1"]);
    expect((await browser.json("GET", "/api/workflows")).status).toBe(200);
  });

  it("still refuses a run with no session at all", async () => {
    const stranger = new TestClient(server.url);
    const answer = await stranger.json<{ error: string }>("POST", "/api/generate/flux-pro", {
      nodeId: "n1",
      inputs: { prompt: "x" },
    });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe("Not authenticated");
  });
});
