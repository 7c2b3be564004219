import { type Entry, type Fixture, unique } from "./route-inventory-base.ts";
import { makeWorkflow } from "./workflows.ts";

async function basedOn(f: Fixture): Promise<string> {
  const own = await f.alice.json<{ workflow: { updated_at: string } }>(
    "GET",
    `/api/workflows/${f.workflow}`,
  );
  return own.body.workflow.updated_at;
}

/** Folders in the route inventory. */
export const FOLDER_ROUTES: Record<string, Entry> = {
  "GET /api/folders": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 401,
    probe: () => ({ path: "/api/folders" }),
  },
  "POST /api/folders": {
    writes: true,
    owner: 201,
    other: 201,
    anonymous: 401,
    probe: () => ({ path: "/api/folders", json: { name: `Folder ${unique()}` } }),
  },
  "PATCH /api/folders/:id": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 401,
    probe: (f) => ({ path: `/api/folders/${f.folder}`, json: { name: `Renamed ${unique()}` } }),
  },
  "DELETE /api/folders/:id": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 401,
    probe: (f) => ({ path: `/api/folders/${f.folderToDelete}` }),
  },
  "PUT /api/folders/:id/workflows": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 401,
    probe: (f) => ({
      path: `/api/folders/${f.folder}/workflows`,
      json: { workflowIds: [f.workflowToCopy] },
    }),
  },
  "POST /api/folders/:id/workflows": {
    writes: true,
    owner: 201,
    other: 404,
    anonymous: 401,
    probe: (f) => ({
      path: `/api/folders/${f.folder}/workflows`,
      json: { workflowIds: [f.workflowToCopy] },
    }),
  },
};

/** Workflows (saves, batched saves, forks, their event stream) in the route inventory. */
export const WORKFLOW_ROUTES: Record<string, Entry> = {
  "GET /api/workflows": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 401,
    probe: (f) => ({ path: `/api/workflows?folderId=${f.folder}` }),
  },
  "POST /api/workflows": {
    writes: true,
    owner: 201,
    other: 404,
    anonymous: 401,
    probe: (f) => ({
      path: "/api/workflows",
      json: { name: "New", data: makeWorkflow("New"), folderId: f.folder },
    }),
  },
  "GET /api/workflows/:id": {
    writes: false,
    owner: 200,
    other: 404,
    anonymous: 401,
    links: { view: 200, edit: 200 },
    probe: (f) => ({ path: `/api/workflows/${f.workflow}` }),
  },
  "PUT /api/workflows/:id": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 401,
    links: { edit: 200 },
    probe: async (f) => ({
      path: `/api/workflows/${f.workflow}`,
      json: { name: "Mine", data: makeWorkflow("Mine"), basedOn: await basedOn(f) },
    }),
  },
  "PATCH /api/workflows/:id": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 401,
    links: { edit: 200 },
    probe: async (f) => ({
      path: `/api/workflows/${f.workflow}`,
      json: {
        name: "Mine",
        basedOn: await basedOn(f),
        data: { ...makeWorkflow("Mine"), nodes: undefined, edges: undefined },
        nodes: makeWorkflow().nodes,
        removed: [],
      },
    }),
  },
  "DELETE /api/workflows/:id": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 401,
    probe: (f) => ({ path: `/api/workflows/${f.workflowToDelete}` }),
  },
  "PUT /api/workflows/:id/saves/:saveId/batches/:index": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 401,
    links: { edit: 200 },
    probe: (f) => ({
      path: `/api/workflows/${f.workflow}/saves/probe-save-1/batches/0`,
      json: { nodes: makeWorkflow().nodes },
    }),
  },
  "POST /api/workflows/:id/saves/:saveId/commit": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 401,
    links: { edit: 200 },
    probe: async (f) => {
      const { nodes: _nodes, ...data } = makeWorkflow("Committed");
      return {
        path: `/api/workflows/${f.workflow}/saves/probe-save-1/commit`,
        json: { name: "Committed", basedOn: await basedOn(f), batches: 1, data },
      };
    },
  },
  "DELETE /api/workflows/:id/saves/:saveId": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 401,
    links: { edit: 200 },
    probe: (f) => ({ path: `/api/workflows/${f.workflow}/saves/probe-save-2` }),
  },
  "POST /api/workflows/fork": {
    writes: true,
    owner: 201,
    other: 404,
    anonymous: 401,
    probe: (f) => ({ path: "/api/workflows/fork", json: { sourceWorkflowId: f.workflow } }),
  },
  "GET /api/workflows/:id/events": {
    writes: false,
    owner: 200,
    other: 404,
    anonymous: 401,
    links: { view: 200, edit: 200 },
    probe: (f) => ({ path: `/api/workflows/${f.workflow}/events`, stream: true }),
  },
};
