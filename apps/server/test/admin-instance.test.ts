import type { AdminJob, InstanceHealth } from "@atelier/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "../src/db/schema.ts";
import { type FakeFal, falEnv, startFakeFal } from "./fakes/fal-server.ts";
import { uploadPng } from "./helpers/apps.ts";
import { TestClient } from "./helpers/client.ts";
import { waitForJob } from "./helpers/jobs.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

/*
 * Issue 23, admin: instance health (queue depth and age, workers alive, storage used,
 * provider errors in the last hour) and jobs across users, any of which an admin cancels.
 */
describe("admin: instance health and jobs across users", () => {
  let fal: FakeFal;
  let server: TestServer;
  let admin: TestClient;
  let alice: TestClient;

  beforeAll(async () => {
    fal = await startFakeFal();
    server = await startTestServer({
      ...falEnv(fal),
      PROVIDER_POLL_MS: "30",
    });
    await (await server.ctx.generation()).engine.work({ concurrency: 2 });
    admin = new TestClient(server.url);
    await admin.signUp("instance-admin@example.com");
    await server.ctx.database.db
      .update(user)
      .set({ isAdmin: true })
      .where(eq(user.email, "instance-admin@example.com"));
    alice = new TestClient(server.url);
    await alice.signUp("alice-instance@example.com");
  });
  afterAll(async () => {
    await server.close();
    await fal.close();
  });

  const start = (nodeId: string) =>
    alice.json<{ requestId: string }>("POST", "/api/generate/flux-pro", {
      nodeId,
      inputs: { prompt: "a harbour" },
    });

  it("reports a failing provider, storage, the workers alive and a job that waits", async () => {
    await uploadPng(alice);
    fal.script("next", [{ status: "COMPLETED" }], {
      status: 422,
      body: { detail: [{ msg: "Prompt is too long", loc: ["body", "prompt"] }] },
    });
    const failing = await start("fails");
    expect((await waitForJob(alice, failing.body.requestId)).status).toBe("FAILED");
    // One that stays in progress at fal until cancelled.
    fal.script("next", [{ status: "IN_QUEUE", position: 1 }, { status: "IN_PROGRESS" }]);
    const long = await start("long");
    expect(long.status).toBe(202);

    const health = await admin.json<InstanceHealth>("GET", "/api/admin/health");
    expect(health.status).toBe(200);
    expect(health.body.queue.queued + health.body.queue.running).toBe(1);
    expect(health.body.workers).toHaveLength(1);
    expect(health.body.workers[0]).toMatchObject({ pid: process.pid, concurrency: 2 });
    expect(health.body.storage.mediaBytes).toBeGreaterThan(0);
    expect(health.body.providerErrors).toEqual([
      { provider: "fal", failed: 1, lastError: expect.stringContaining("Prompt is too long") },
    ]);
    expect((await alice.json("GET", "/api/admin/health")).status).toBe(403);
  });

  it("lists jobs across users and cancels anyone's at its provider too", async () => {
    const listed = await admin.json<{ jobs: AdminJob[] }>("GET", "/api/admin/jobs");
    const [active] = listed.body.jobs;
    expect(active).toMatchObject({
      email: "alice-instance@example.com",
      model: "flux-pro",
      provider: "fal",
    });
    expect(["IN_QUEUE", "IN_PROGRESS"]).toContain(active?.status);
    expect(listed.body.jobs.map((job) => job.status)).toContain("FAILED");

    expect((await alice.json("POST", `/api/admin/jobs/${active?.id}/cancel`, {})).status).toBe(403);
    const cancelled = await admin.json("POST", `/api/admin/jobs/${active?.id}/cancel`, {});
    expect(cancelled).toMatchObject({ status: 200, body: { job: { status: "CANCELLED" } } });
    expect(fal.counters.cancels).toBe(1);
    const own = await alice.json<{ status: string }>("POST", "/api/queue/status", {
      requestId: active?.id,
    });
    expect(own.body.status).toBe("CANCELLED");
    expect((await admin.json("POST", "/api/admin/jobs/no-such-job/cancel", {})).status).toBe(404);
    const health = await admin.json<InstanceHealth>("GET", "/api/admin/health");
    expect(health.body.queue).toMatchObject({ queued: 0, running: 0, oldestQueuedSeconds: null });
  });
});
