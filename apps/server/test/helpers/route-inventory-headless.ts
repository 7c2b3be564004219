import { type Entry, type Fixture, unique } from "./route-inventory-base.ts";

/** A new run of Alice's workflow; its id. */
export async function startRun(f: Pick<Fixture, "alice" | "workflow">): Promise<string> {
  const started = await f.alice.json<{ run: { id: string } }>("POST", "/api/runs", {
    workflowId: f.workflow,
  });
  return started.body.run.id;
}

/** The server-side runs' routes (ADR 0010) in the route inventory. */
export const RUN_ROUTES: Record<string, Entry> = {
  "POST /api/runs": {
    writes: true,
    owner: 202,
    other: 404,
    anonymous: 401,
    probe: (f) => ({ path: "/api/runs", json: { workflowId: f.workflow } }),
  },
  "GET /api/runs": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 401,
    probe: () => ({ path: "/api/runs" }),
  },
  "GET /api/runs/:id": {
    writes: false,
    owner: 200,
    other: 404,
    anonymous: 401,
    probe: (f) => ({ path: `/api/runs/${f.run}` }),
  },
  "POST /api/runs/:id/cancel": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 401,
    probe: (f) => ({ path: `/api/runs/${f.run}/cancel`, json: {} }),
  },
  "POST /api/runs/:id/retry": {
    writes: true,
    owner: 202,
    other: 404,
    anonymous: 401,
    probe: async (f) => {
      const run = await startRun(f);
      await f.alice.json("POST", `/api/runs/${run}/cancel`, {});
      return { path: `/api/runs/${run}/retry`, json: {} };
    },
  },
  "POST /api/runs/:id/move": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 401,
    probe: async (f) => {
      // A paused queue keeps the run queued, so it can move.
      await f.alice.json("PUT", "/api/queue/state", { paused: true });
      return { path: `/api/runs/${await startRun(f)}/move`, json: { direction: "up" } };
    },
  },
  "POST /api/runs/cancel-all": {
    writes: true,
    owner: 200,
    other: 200,
    anonymous: 401,
    probe: () => ({ path: "/api/runs/cancel-all", json: {} }),
  },
  "PUT /api/queue/state": {
    writes: true,
    owner: 200,
    other: 200,
    anonymous: 401,
    probe: () => ({ path: "/api/queue/state", json: { paused: true } }),
  },
  "GET /api/workflows/:id/runs": {
    writes: false,
    owner: 200,
    other: 404,
    anonymous: 401,
    probe: (f) => ({ path: `/api/workflows/${f.workflow}/runs` }),
  },
};

/** Headless use: API tokens and the API's own documentation. */
export const HEADLESS_ROUTES: Record<string, Entry> = {
  "GET /api/tokens": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 401,
    probe: () => ({ path: "/api/tokens" }),
  },
  "POST /api/tokens": {
    writes: true,
    owner: 201,
    other: 201,
    anonymous: 401,
    probe: () => ({ path: "/api/tokens", json: { name: `Token ${unique()}` } }),
  },
  "DELETE /api/tokens/:id": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 401,
    probe: (f) => ({ path: `/api/tokens/${f.tokenToRevoke}` }),
  },
  // The API's description and its reference page (public: nothing of any user's in them).
  "GET /api/openapi.json": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 200,
    probe: () => ({ path: "/api/openapi.json" }),
  },
  "GET /api/docs": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 200,
    probe: () => ({ path: "/api/docs" }),
  },
  "GET /api/docs/:file": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 200,
    probe: () => ({ path: "/api/docs/init.js" }),
  },
};
