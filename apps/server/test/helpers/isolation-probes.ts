import { makeWorkflow } from "./workflows.ts";

export interface Probe {
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
export function probesFor(ids: {
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
    "GET /api/ready": [{ method: "GET", path: "/api/ready", expect: [200] }],
    "GET /api/auth/admin-status": [
      { method: "GET", path: "/api/auth/admin-status", expect: [200] },
    ],
    "GET /api/auth/providers": [{ method: "GET", path: "/api/auth/providers", expect: [200] }],
    "POST /api/auth/sign-in/*": [],
    "POST /api/auth/sign-up/*": [],
    "POST /api/auth/request-password-reset": [],
    "POST /api/auth/send-verification-email": [],
    "POST /api/auth/reset-password": [],
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
    "POST /api/callbacks/replicate/:token": [
      { method: "POST", path: `/api/callbacks/replicate/${token}`, body: {}, expect: [404] },
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
    "GET /api/pricing": [{ method: "GET", path: "/api/pricing", expect: [200] }],
    "GET /api/usage": [{ method: "GET", path: "/api/usage", expect: [200] }],
    "GET /api/providers": [{ method: "GET", path: "/api/providers", expect: [200] }],
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
    // Versions: Alice's history is not Bob's to read, name or restore.
    "GET /api/workflows/:id/versions": [
      { method: "GET", path: `/api/workflows/${ids.workflow}/versions`, expect: [404] },
    ],
    "GET /api/workflows/:id/versions/:v": [
      { method: "GET", path: `/api/workflows/${ids.workflow}/versions/1`, expect: [404] },
    ],
    "PATCH /api/workflows/:id/versions/:v": [
      {
        method: "PATCH",
        path: `/api/workflows/${ids.workflow}/versions/1`,
        body: { name: "Mine" },
        expect: [404],
      },
    ],
    "POST /api/workflows/:id/versions/:v/restore": [
      {
        method: "POST",
        path: `/api/workflows/${ids.workflow}/versions/1/restore`,
        body: {},
        expect: [404],
      },
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
    // Sharing: Alice's links and app are hers to manage; links themselves: share-policy.test.ts.
    "POST /api/workflows/:id/shares": [
      {
        method: "POST",
        path: `/api/workflows/${ids.workflow}/shares`,
        body: { role: "edit" },
        expect: [404],
      },
    ],
    "GET /api/workflows/:id/shares": [
      { method: "GET", path: `/api/workflows/${ids.workflow}/shares`, expect: [404] },
    ],
    "DELETE /api/workflows/:id/shares/:shareId": [
      { method: "DELETE", path: `/api/workflows/${ids.workflow}/shares/x`, expect: [404] },
    ],
    "GET /api/shares/:token": [{ method: "GET", path: `/api/shares/${token}`, expect: [404] }],
    "PUT /api/workflows/:id/app": [
      {
        method: "PUT",
        path: `/api/workflows/${ids.workflow}/app`,
        body: { name: "Mine now", fields: [], outputs: [{ nodeId: "n1" }] },
        expect: [404],
      },
    ],
    "GET /api/workflows/:id/app": [
      { method: "GET", path: `/api/workflows/${ids.workflow}/app`, expect: [404] },
    ],
    "DELETE /api/workflows/:id/app": [
      { method: "DELETE", path: `/api/workflows/${ids.workflow}/app`, expect: [404] },
    ],
    "GET /api/apps/:slug": [{ method: "GET", path: `/api/apps/${token}`, expect: [404] }],
    "POST /api/apps/:slug/runs": [
      { method: "POST", path: `/api/apps/${token}/runs`, body: { values: {} }, expect: [404] },
    ],
    "GET /api/apps/:slug/runs": [{ method: "GET", path: `/api/apps/${token}/runs`, expect: [404] }],
    "POST /api/apps/:slug/estimate": [
      { method: "POST", path: `/api/apps/${token}/estimate`, body: { values: {} }, expect: [404] },
    ],
    "POST /api/admin/invites": [
      { method: "POST", path: "/api/admin/invites", body: {}, expect: [403] },
    ],
    "GET /api/admin/invites": [{ method: "GET", path: "/api/admin/invites", expect: [403] }],
    "GET /api/admin/users": [{ method: "GET", path: "/api/admin/users", expect: [403] }],
    "PATCH /api/admin/users/:id": [
      { method: "PATCH", path: "/api/admin/users/x", body: { disabled: true }, expect: [403] },
    ],
    "POST /api/admin/users/:id/reset-link": [
      { method: "POST", path: "/api/admin/users/x/reset-link", body: {}, expect: [403] },
    ],
    "GET /api/admin/users/:id/limits": [
      { method: "GET", path: "/api/admin/users/x/limits", expect: [403] },
    ],
    "PUT /api/admin/users/:id/limits": [
      {
        method: "PUT",
        path: "/api/admin/users/x/limits",
        body: {
          generationsPerMinute: 1,
          concurrentJobs: 1,
          dailyBudgetUsd: 0,
          monthlyBudgetUsd: 0,
        },
        expect: [403],
      },
    ],
    "GET /api/admin/spend": [{ method: "GET", path: "/api/admin/spend", expect: [403] }],
    "GET /api/admin/health": [{ method: "GET", path: "/api/admin/health", expect: [403] }],
    "GET /api/admin/jobs": [{ method: "GET", path: "/api/admin/jobs", expect: [403] }],
    "POST /api/admin/jobs/:id/cancel": [
      { method: "POST", path: `/api/admin/jobs/${ids.job}/cancel`, body: {}, expect: [403] },
    ],
    "DELETE /api/admin/invites/:id": [
      { method: "DELETE", path: "/api/admin/invites/x", expect: [403] },
    ],
    "GET /api/apps/:slug/runs/:runId": [
      { method: "GET", path: `/api/apps/${token}/runs/${ids.run}`, expect: [404] },
    ],
  };
}
