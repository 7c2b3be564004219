import { type Entry, type Fixture, unique } from "./route-inventory-base.ts";
import { makeWorkflow } from "./workflows.ts";

/** The app settings the fixture's workflows publish: its text node's prompt, its model's output. */
export const FIXTURE_APP = {
  name: "Secret app",
  access: "link",
  fields: [{ kind: "param", nodeId: "n0", param: "text" }],
  outputs: [{ nodeId: "n1" }],
} as const;

/** A new workflow of Alice's with an app published; its id. */
async function publishedWorkflow(f: Fixture): Promise<string> {
  const created = await f.alice.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
    name: `Published ${unique()}`,
    data: makeWorkflow("Published"),
  });
  const id = created.body.workflow.id;
  await f.alice.json("PUT", `/api/workflows/${id}/app`, FIXTURE_APP);
  return id;
}

/**
 * Share links and published apps (issue 22) in the route inventory. The fixture's app is
 * link-only, so only its owner and a run link open it; a link's own answer is public.
 */
export const SHARING_ROUTES: Record<string, Entry> = {
  "POST /api/workflows/:id/shares": {
    writes: true,
    owner: 201,
    other: 404,
    anonymous: 401,
    probe: (f) => ({ path: `/api/workflows/${f.workflow}/shares`, json: { role: "view" } }),
  },
  "GET /api/workflows/:id/shares": {
    writes: false,
    owner: 200,
    other: 404,
    anonymous: 401,
    probe: (f) => ({ path: `/api/workflows/${f.workflow}/shares` }),
  },
  "DELETE /api/workflows/:id/shares/:shareId": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 401,
    probe: async (f) => {
      const made = await f.alice.json<{ share: { id: string } }>(
        "POST",
        `/api/workflows/${f.workflow}/shares`,
        { role: "edit" },
      );
      return { path: `/api/workflows/${f.workflow}/shares/${made.body.share.id}` };
    },
  },
  "GET /api/shares/:token": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 200,
    probe: (f) => ({ path: `/api/shares/${f.shares.view}` }),
  },
  "PUT /api/workflows/:id/app": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 401,
    probe: (f) => ({ path: `/api/workflows/${f.workflow}/app`, json: FIXTURE_APP }),
  },
  "GET /api/workflows/:id/app": {
    writes: false,
    owner: 200,
    other: 404,
    anonymous: 401,
    probe: (f) => ({ path: `/api/workflows/${f.workflow}/app` }),
  },
  "DELETE /api/workflows/:id/app": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 401,
    probe: async (f) => ({ path: `/api/workflows/${await publishedWorkflow(f)}/app` }),
  },
  "GET /api/apps/:slug": {
    writes: false,
    owner: 200,
    other: 404,
    anonymous: 404,
    links: { run: 200 },
    probe: (f) => ({ path: `/api/apps/${f.appSlug}` }),
  },
  "POST /api/apps/:slug/runs": {
    writes: true,
    owner: 202,
    other: 404,
    anonymous: 404,
    links: { run: 202 },
    probe: (f) => ({ path: `/api/apps/${f.appSlug}/runs`, json: { values: {} } }),
  },
  "POST /api/apps/:slug/estimate": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 404,
    links: { run: 200 },
    probe: (f) => ({ path: `/api/apps/${f.appSlug}/estimate`, json: { values: {} } }),
  },
  "GET /api/apps/:slug/runs": {
    writes: false,
    owner: 200,
    other: 404,
    anonymous: 404,
    links: { run: 200 },
    probe: (f) => ({ path: `/api/apps/${f.appSlug}/runs` }),
  },
  // Alice's own run of her app: a run link's holder sees only their own runs.
  "GET /api/apps/:slug/runs/:runId": {
    writes: false,
    owner: 200,
    other: 404,
    anonymous: 404,
    probe: (f) => ({ path: `/api/apps/${f.appSlug}/runs/${f.appRun}` }),
  },
  // Admins only: Alice is no admin, so 403 for her as for Bob (admin-invites: signup-policy.test.ts).
  "POST /api/admin/invites": {
    writes: true,
    owner: 403,
    other: 403,
    anonymous: 401,
    probe: () => ({ path: "/api/admin/invites", json: {} }),
  },
  "GET /api/admin/invites": {
    writes: false,
    owner: 403,
    other: 403,
    anonymous: 401,
    probe: () => ({ path: "/api/admin/invites" }),
  },
  "DELETE /api/admin/invites/:id": {
    writes: true,
    owner: 403,
    other: 403,
    anonymous: 401,
    probe: () => ({ path: "/api/admin/invites/no-such-invite" }),
  },
  "GET /api/admin/users": {
    writes: false,
    owner: 403,
    other: 403,
    anonymous: 401,
    probe: () => ({ path: "/api/admin/users" }),
  },
  "PATCH /api/admin/users/:id": {
    writes: true,
    owner: 403,
    other: 403,
    anonymous: 401,
    probe: () => ({ path: "/api/admin/users/no-such-user", json: { disabled: true } }),
  },
  "POST /api/admin/users/:id/reset-link": {
    writes: true,
    owner: 403,
    other: 403,
    anonymous: 401,
    probe: () => ({ path: "/api/admin/users/no-such-user/reset-link", json: {} }),
  },
  "GET /api/admin/users/:id/limits": {
    writes: false,
    owner: 403,
    other: 403,
    anonymous: 401,
    probe: () => ({ path: "/api/admin/users/no-such-user/limits" }),
  },
  "PUT /api/admin/users/:id/limits": {
    writes: true,
    owner: 403,
    other: 403,
    anonymous: 401,
    probe: () => ({
      path: "/api/admin/users/no-such-user/limits",
      json: {
        generationsPerMinute: null,
        concurrentJobs: null,
        dailyBudgetUsd: 1,
        monthlyBudgetUsd: null,
      },
    }),
  },
  "GET /api/admin/health": {
    writes: false,
    owner: 403,
    other: 403,
    anonymous: 401,
    probe: () => ({ path: "/api/admin/health" }),
  },
  "GET /api/admin/jobs": {
    writes: false,
    owner: 403,
    other: 403,
    anonymous: 401,
    probe: () => ({ path: "/api/admin/jobs" }),
  },
  "POST /api/admin/jobs/:id/cancel": {
    writes: true,
    owner: 403,
    other: 403,
    anonymous: 401,
    probe: (f) => ({ path: `/api/admin/jobs/${f.job}/cancel`, json: {} }),
  },
  "GET /api/admin/spend": {
    writes: false,
    owner: 403,
    other: 403,
    anonymous: 401,
    probe: () => ({ path: "/api/admin/spend" }),
  },
  "GET /api/pricing": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 200,
    probe: () => ({ path: "/api/pricing" }),
  },
  "GET /api/usage": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 401,
    probe: () => ({ path: "/api/usage" }),
  },
  "GET /api/providers": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 401,
    probe: () => ({ path: "/api/providers" }),
  },
};
