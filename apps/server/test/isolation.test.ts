import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./helpers/client.ts";
import { pngBytes, uploadForm } from "./helpers/files.ts";
import { probesFor } from "./helpers/isolation-probes.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

describe("isolation between users (every route)", () => {
  let server: TestServer;
  let alice: TestClient;
  let bob: TestClient;
  let ids: {
    workflow: string;
    folder: string;
    media: string;
    mediaPath: string;
    job: string;
    token: string;
    run: string;
  };

  beforeAll(async () => {
    server = await startTestServer();
    alice = new TestClient(server.url);
    bob = new TestClient(server.url);
    await alice.signUp("alice@example.com");
    await bob.signUp("bob@example.com");
    const folder = (
      await alice.json<{ folder: { id: string } }>("POST", "/api/folders", { name: "Hidden work" })
    ).body.folder.id;
    const workflow = (
      await alice.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
        name: "Secret",
        data: makeWorkflow("Secret"),
        folderId: folder,
      })
    ).body.workflow.id;
    const upload = await alice.raw("POST", "/api/media", {
      body: uploadForm(
        { name: "a.png", type: "image/png", bytes: await pngBytes() },
        { workflowId: workflow },
      ),
    });
    const media = (await upload.json()) as { id: string; path: string };
    // No worker runs here: Alice's job stays queued while Bob probes it.
    const job = await alice.json<{ requestId: string }>("POST", "/api/generate/gemini-text", {
      nodeId: "n1",
      workflowId: workflow,
      inputs: { prompt: "Secret prompt" },
    });
    const token = await alice.json<{ id: string }>("POST", "/api/tokens", { name: "Secret" });
    const run = await alice.json<{ run: { id: string } }>("POST", "/api/runs", {
      workflowId: workflow,
    });
    ids = {
      workflow,
      folder,
      media: media.id,
      mediaPath: media.path,
      job: job.body.requestId,
      token: token.body.id,
      run: run.body.run.id,
    };
  });
  afterAll(() => server.close());

  it("classifies every registered route", () => {
    const classified = Object.keys(probesFor(ids));
    const registered = server.routes.filter((route) => route.includes(" /api/"));
    expect(registered.length).toBeGreaterThanOrEqual(classified.length);
    for (const route of registered)
      expect(classified, `route ${route} has no isolation probe`).toContain(route);
  });

  it("never lets Bob read, change, delete or learn of Alice's resources", async () => {
    for (const [route, probes] of Object.entries(probesFor(ids))) {
      for (const probe of probes) {
        const result = await bob.json<Record<string, unknown>>(
          probe.method,
          probe.path,
          probe.body,
        );
        expect(
          probe.expect,
          `${route}: ${probe.method} ${probe.path} → ${result.status}`,
        ).toContain(result.status);
        const text = JSON.stringify(result.body ?? {});
        expect(text, `${route} leaked Alice's data`).not.toContain("Secret");
        expect(text, `${route} leaked Alice's folder`).not.toContain("Hidden work");
        if (
          result.status === 200 &&
          probe.method === "GET" &&
          probe.path.startsWith("/api/media")
        ) {
          expect(result.body).toEqual({ media: [] });
        }
        if (result.status === 200 && probe.path.startsWith("/api/queue/jobs"))
          expect(result.body).toEqual({ jobs: [] });
        if (result.status === 200 && probe.method === "GET" && probe.path === "/api/runs")
          expect(result.body).toEqual({ paused: false, runs: [] });
      }
    }
    // Bob's "cancel all" left Alice's run alone.
    const run = await alice.json<{ run: { status: string } }>("GET", `/api/runs/${ids.run}`);
    expect(run.body.run.status).toBe("queued");
    // Alice still has everything, unchanged; her job was not cancelled.
    const job = await alice.json<{ status: string }>("POST", "/api/queue/status", {
      requestId: ids.job,
    });
    expect(job.body.status).toBe("IN_QUEUE");
    const own = await alice.json<{ workflow: { name: string; folder_id: string } }>(
      "GET",
      `/api/workflows/${ids.workflow}`,
    );
    expect(own.body.workflow).toMatchObject({ name: "Secret", folder_id: ids.folder });
    const folders = await alice.json<{ folders: { name: string; workflow_count: number }[] }>(
      "GET",
      "/api/folders",
    );
    expect(folders.body.folders).toEqual([
      expect.objectContaining({ name: "Hidden work", workflow_count: 1 }),
    ]);
    expect(
      (await bob.json<{ workflows: unknown[] }>("GET", "/api/workflows")).body.workflows,
    ).toEqual([]);
  });

  it("shows a public workflow to others without the owner's folder", async () => {
    const shared = (
      await alice.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
        name: "Shared",
        data: makeWorkflow("Shared"),
        folderId: ids.folder,
        isPublic: true,
      })
    ).body.workflow.id;
    const seen = await bob.json<{ workflow: { name: string; folder_id: string | null } }>(
      "GET",
      `/api/workflows/${shared}`,
    );
    expect(seen.status).toBe(200);
    expect(seen.body.workflow).toMatchObject({ name: "Shared", folder_id: null });
    expect(
      (
        await bob.json("PUT", `/api/workflows/${shared}`, {
          name: "x",
          data: makeWorkflow(),
          basedOn: new Date().toISOString(),
        })
      ).status,
    ).toBe(404);
    expect((await bob.json("DELETE", `/api/workflows/${shared}`)).status).toBe(404);
  });

  it("answers 401 to every user-data route when signed out", async () => {
    const anonymous = new TestClient(server.url);
    for (const [method, path] of [
      ["GET", "/api/folders"],
      ["GET", "/api/workflows"],
      ["GET", `/api/workflows/${ids.workflow}`],
      ["GET", `/api/workflows/${ids.workflow}/events`],
      ["PATCH", `/api/workflows/${ids.workflow}`],
      ["DELETE", `/api/media/${ids.media}`],
      ["GET", "/api/auth/admin-status"],
    ] as const) {
      expect((await anonymous.json(method, path)).status, `${method} ${path}`).toBe(401);
    }
  });
});
