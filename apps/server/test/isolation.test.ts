import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./helpers/client.ts";
import { pngBytes, uploadForm } from "./helpers/files.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

interface Probe {
  method: string;
  path: string;
  body?: unknown;
  /** What Bob must get; 404 for anything that names Alice's resource. */
  expect: number[];
}

/**
 * Every registered route is listed here with how Bob (a second user) tries it against
 * Alice's resources. A new route that is not classified fails the inventory check, so
 * nobody can add a route without deciding how it is guarded.
 */
function probesFor(ids: {
  workflow: string;
  folder: string;
  media: string;
  mediaPath: string;
  job: string;
  token: string;
  run: string;
}): Record<string, Probe[]> {
  const fetchQuery = `requestId=${ids.job}&nodeId=n1&workflowId=${ids.workflow}`;
  const token = "ab".repeat(24);
  return {
    "GET /api/health": [{ method: "GET", path: "/api/health", expect: [200] }],
    "GET /api/auth/admin-status": [
      { method: "GET", path: "/api/auth/admin-status", expect: [200] },
    ],
    "GET /api/auth/providers": [{ method: "GET", path: "/api/auth/providers", expect: [200] }],
    "POST /api/auth/sign-in/*": [],
    "POST /api/auth/sign-up/*": [],
    "GET /api/auth/*": [],
    "POST /api/auth/*": [],
    "GET /api/folders": [{ method: "GET", path: "/api/folders", expect: [200] }],
    "POST /api/folders": [],
    "PATCH /api/folders/:id": [
      {
        method: "PATCH",
        path: `/api/folders/${ids.folder}`,
        body: { name: "Mine now" },
        expect: [404],
      },
    ],
    "DELETE /api/folders/:id": [
      { method: "DELETE", path: `/api/folders/${ids.folder}`, expect: [404] },
    ],
    "PUT /api/folders/:id/workflows": [
      {
        method: "PUT",
        path: `/api/folders/${ids.folder}/workflows`,
        body: { workflowIds: [ids.workflow] },
        expect: [404],
      },
      {
        method: "PUT",
        path: "/api/folders/unfiled/workflows",
        body: { workflowIds: [ids.workflow] },
        expect: [404],
      },
    ],
    "POST /api/folders/:id/workflows": [
      {
        method: "POST",
        path: `/api/folders/${ids.folder}/workflows`,
        body: { workflowIds: [ids.workflow] },
        expect: [404],
      },
      {
        method: "POST",
        path: "/api/folders/unfiled/workflows",
        body: { workflowIds: [ids.workflow] },
        expect: [404],
      },
    ],
    "PUT /api/workflows/:id/saves/:saveId/batches/:index": [
      {
        method: "PUT",
        path: `/api/workflows/${ids.workflow}/saves/probe-save-1/batches/0`,
        body: { nodes: [] },
        expect: [404],
      },
    ],
    "POST /api/workflows/:id/saves/:saveId/commit": [
      {
        method: "POST",
        path: `/api/workflows/${ids.workflow}/saves/probe-save-1/commit`,
        body: { name: "Mine now", basedOn: new Date().toISOString(), batches: 1, data: {} },
        expect: [404],
      },
    ],
    "DELETE /api/workflows/:id/saves/:saveId": [
      {
        method: "DELETE",
        path: `/api/workflows/${ids.workflow}/saves/probe-save-1`,
        expect: [404],
      },
    ],
    "GET /api/workflows": [
      { method: "GET", path: `/api/workflows?folderId=${ids.folder}`, expect: [200] },
    ],
    "POST /api/workflows": [
      {
        method: "POST",
        path: "/api/workflows",
        body: { name: "x", data: makeWorkflow(), folderId: ids.folder },
        expect: [404],
      },
    ],
    "GET /api/workflows/:id": [
      { method: "GET", path: `/api/workflows/${ids.workflow}`, expect: [404] },
    ],
    "PUT /api/workflows/:id": [
      {
        method: "PUT",
        path: `/api/workflows/${ids.workflow}`,
        body: { name: "x", data: makeWorkflow(), basedOn: new Date().toISOString() },
        expect: [404],
      },
    ],
    "PATCH /api/workflows/:id": [
      {
        method: "PATCH",
        path: `/api/workflows/${ids.workflow}`,
        body: {
          name: "x",
          basedOn: new Date().toISOString(),
          data: { ...makeWorkflow(), nodes: undefined, edges: undefined },
          nodes: makeWorkflow().nodes,
          removed: [],
        },
        expect: [404],
      },
    ],
    "DELETE /api/workflows/:id": [
      { method: "DELETE", path: `/api/workflows/${ids.workflow}`, expect: [404] },
    ],
    "POST /api/workflows/fork": [
      {
        method: "POST",
        path: "/api/workflows/fork",
        body: { sourceWorkflowId: ids.workflow },
        expect: [404],
      },
    ],
    "GET /api/workflows/:id/events": [
      { method: "GET", path: `/api/workflows/${ids.workflow}/events`, expect: [404] },
    ],
    "POST /api/generate/:model": [
      {
        method: "POST",
        path: "/api/generate/runway-video",
        body: { action: "check_status", task_id: ids.job },
        expect: [404],
      },
      {
        method: "POST",
        path: "/api/generate/wan",
        body: { action: "check_status", requestId: ids.job, nodeId: "n1" },
        expect: [404],
      },
      {
        method: "POST",
        path: "/api/generate/gemini-text",
        body: { nodeId: "n1", workflowId: ids.workflow, inputs: { prompt: "x" } },
        expect: [404],
      },
    ],
    "GET /api/generate/:model": [
      { method: "GET", path: `/api/generate/kling?${fetchQuery}`, expect: [404] },
      { method: "GET", path: `/api/generate/google-flash?${fetchQuery}`, expect: [404] },
    ],
    "GET /api/utilities/video-upscale": [
      { method: "GET", path: `/api/utilities/video-upscale?${fetchQuery}`, expect: [404] },
    ],
    "GET /api/utilities/luma-reframe": [
      { method: "GET", path: `/api/utilities/luma-reframe?${fetchQuery}`, expect: [404] },
    ],
    "GET /api/callbacks/luma": [
      { method: "GET", path: `/api/callbacks/luma?requestId=${ids.job}`, expect: [404] },
    ],
    "POST /api/callbacks/fal/:token": [
      { method: "POST", path: `/api/callbacks/fal/${token}`, body: {}, expect: [404] },
    ],
    "POST /api/callbacks/luma/:token": [
      { method: "POST", path: `/api/callbacks/luma/${token}`, body: {}, expect: [404] },
    ],
    "POST /api/queue/status": [
      { method: "POST", path: "/api/queue/status", body: { requestId: ids.job }, expect: [404] },
    ],
    "POST /api/queue/cancel": [
      { method: "POST", path: "/api/queue/cancel", body: { requestId: ids.job }, expect: [404] },
    ],
    "GET /api/queue/jobs": [
      { method: "GET", path: `/api/queue/jobs?workflowId=${ids.workflow}`, expect: [200] },
    ],
    // A stream of the caller's own job changes: see "streams only the caller's jobs" below.
    "GET /api/queue/events": [],
    "POST /api/media": [],
    "GET /api/media": [
      { method: "GET", path: `/api/media?workflowId=${ids.workflow}`, expect: [200] },
    ],
    "DELETE /api/media/:id": [{ method: "DELETE", path: `/api/media/${ids.media}`, expect: [404] }],
    "GET /api/media/file/*": [],
    // Runs: Bob's own queue answers, Alice's runs and her workflow's runs are 404.
    "POST /api/runs": [
      { method: "POST", path: "/api/runs", body: { workflowId: ids.workflow }, expect: [404] },
    ],
    "GET /api/runs": [{ method: "GET", path: "/api/runs", expect: [200] }],
    "GET /api/runs/:id": [{ method: "GET", path: `/api/runs/${ids.run}`, expect: [404] }],
    "POST /api/runs/:id/cancel": [
      { method: "POST", path: `/api/runs/${ids.run}/cancel`, body: {}, expect: [404] },
    ],
    "POST /api/runs/:id/retry": [
      { method: "POST", path: `/api/runs/${ids.run}/retry`, body: {}, expect: [404] },
    ],
    "POST /api/runs/:id/move": [
      {
        method: "POST",
        path: `/api/runs/${ids.run}/move`,
        body: { direction: "up" },
        expect: [404],
      },
    ],
    "POST /api/runs/cancel-all": [
      { method: "POST", path: "/api/runs/cancel-all", body: {}, expect: [200] },
    ],
    "PUT /api/queue/state": [
      { method: "PUT", path: "/api/queue/state", body: { paused: false }, expect: [200] },
    ],
    "GET /api/workflows/:id/runs": [
      { method: "GET", path: `/api/workflows/${ids.workflow}/runs`, expect: [404] },
    ],
    "GET /api/tokens": [{ method: "GET", path: "/api/tokens", expect: [200] }],
    "POST /api/tokens": [],
    "GET /api/openapi.json": [],
    "GET /api/docs": [],
    "GET /api/docs/:file": [],
    "DELETE /api/tokens/:id": [
      { method: "DELETE", path: `/api/tokens/${ids.token}`, expect: [404] },
    ],
  };
}

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
