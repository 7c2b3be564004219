import { pngBytes, uploadForm } from "./files.ts";
import { type Entry, type Fixture, unique } from "./route-inventory-base.ts";
import { HEADLESS_ROUTES, RUN_ROUTES } from "./route-inventory-headless.ts";
import { SHARING_ROUTES } from "./route-inventory-sharing.ts";
import { VERSION_ROUTES } from "./route-inventory-versions.ts";
import { makeWorkflow } from "./workflows.ts";

/**
 * The permanent route inventory: every registered route, with what the owner of the
 * resources it names (Alice), another user (Bob) and a signed-out visitor get, and whether
 * it changes state. Each route is then tried by five callers: the owner, the other user,
 * an anonymous one, the owner's cookie without Origin (and without Sec-Fetch-Site), and the
 * owner's cookie from a foreign origin (another port of the same host, the case).
 * A route added without an entry here fails the suite, as does an entry without a route.
 */

export type { Entry, Fixture, Probe } from "./route-inventory-base.ts";
export { unique } from "./route-inventory-base.ts";
export { startRun } from "./route-inventory-headless.ts";

const fetchQuery = (f: Fixture) => `requestId=${f.job}&nodeId=n1&workflowId=${f.workflow}`;
const token = "ab".repeat(24);

async function basedOn(f: Fixture): Promise<string> {
  const own = await f.alice.json<{ workflow: { updated_at: string } }>(
    "GET",
    `/api/workflows/${f.workflow}`,
  );
  return own.body.workflow.updated_at;
}

export const INVENTORY: Record<string, Entry> = {
  "GET /api/health": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 200,
    probe: () => ({ path: "/api/health" }),
  },
  "GET /api/ready": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 200,
    probe: () => ({ path: "/api/ready" }),
  },
  // Off on the test server (HOST 0.0.0.0, no METRICS_TOKEN): metrics.test.ts covers it on.
  "GET /metrics": {
    writes: false,
    owner: 404,
    other: 404,
    anonymous: 404,
    probe: () => ({ path: "/metrics" }),
  },
  "GET /api/auth/admin-status": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 401,
    probe: () => ({ path: "/api/auth/admin-status" }),
  },
  "GET /api/auth/providers": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 200,
    probe: () => ({ path: "/api/auth/providers" }),
  },
  // Signing in from a foreign page would sign the victim into the attacker's account.
  "POST /api/auth/sign-in/*": {
    writes: true,
    owner: 200,
    other: 200,
    anonymous: 200,
    probe: () => ({
      path: "/api/auth/sign-in/email",
      json: { email: "alice@example.com", password: "correct horse battery" },
    }),
  },
  "POST /api/auth/sign-up/*": {
    writes: true,
    owner: 200,
    other: 200,
    anonymous: 200,
    probe: () => ({
      path: "/api/auth/sign-up/email",
      json: { email: `new-${unique()}@example.com`, password: "correct horse battery", name: "N" },
    }),
  },
  // The mailing endpoints: this server has no SMTP_URL, so they say so (mail.test.ts sends).
  "POST /api/auth/request-password-reset": {
    writes: true,
    owner: 400,
    other: 400,
    anonymous: 400,
    probe: () => ({
      path: "/api/auth/request-password-reset",
      json: { email: "alice@example.com" },
    }),
  },
  "POST /api/auth/send-verification-email": {
    writes: true,
    owner: 400,
    other: 400,
    anonymous: 400,
    probe: () => ({
      path: "/api/auth/send-verification-email",
      json: { email: "alice@example.com" },
    }),
  },
  "POST /api/auth/reset-password": {
    writes: true,
    owner: 400,
    other: 400,
    anonymous: 400,
    probe: () => ({
      path: "/api/auth/reset-password",
      json: { token: "not-a-token", newPassword: "another horse battery" },
    }),
  },
  // Better Auth's own GET endpoints (session, OAuth callbacks): reads or top-level navigations.
  "GET /api/auth/*": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 200,
    probe: () => ({ path: "/api/auth/get-session" }),
  },
  // Better Auth's other POST endpoints (sign-out, update-user, change-password…).
  "POST /api/auth/*": {
    writes: true,
    owner: 200,
    other: 200,
    anonymous: 401,
    probe: () => ({ path: "/api/auth/update-user", json: { name: "Renamed" } }),
  },
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
  "POST /api/generate/:model": {
    writes: true,
    owner: 202,
    other: 404,
    anonymous: 401,
    probe: (f) => ({
      path: "/api/generate/gemini-text",
      json: { nodeId: `n-${unique()}`, workflowId: f.workflow, inputs: { prompt: "x" } },
    }),
  },
  "GET /api/generate/:model": {
    writes: false,
    owner: 202,
    other: 404,
    anonymous: 401,
    probe: (f) => ({ path: `/api/generate/kling?${fetchQuery(f)}` }),
  },
  "GET /api/utilities/video-upscale": {
    writes: false,
    owner: 202,
    other: 404,
    anonymous: 401,
    probe: (f) => ({ path: `/api/utilities/video-upscale?${fetchQuery(f)}` }),
  },
  "GET /api/utilities/luma-reframe": {
    writes: false,
    owner: 200,
    other: 404,
    anonymous: 401,
    probe: (f) => ({ path: `/api/utilities/luma-reframe?${fetchQuery(f)}` }),
  },
  "GET /api/callbacks/luma": {
    writes: false,
    owner: 200,
    other: 404,
    anonymous: 401,
    probe: (f) => ({ path: `/api/callbacks/luma?requestId=${f.job}` }),
  },
  "POST /api/callbacks/fal/:token": {
    writes: true,
    exempt: "provider webhook, verified by fal's signature",
    owner: 404,
    other: 404,
    anonymous: 404,
    probe: () => ({ path: `/api/callbacks/fal/${token}`, json: {} }),
  },
  "POST /api/callbacks/luma/:token": {
    writes: true,
    exempt: "provider callback, addressed by an unguessable token",
    owner: 404,
    other: 404,
    anonymous: 404,
    probe: () => ({ path: `/api/callbacks/luma/${token}`, json: {} }),
  },
  "POST /api/callbacks/replicate/:token": {
    writes: true,
    exempt: "provider webhook, verified by Replicate's signature",
    owner: 404,
    other: 404,
    anonymous: 404,
    probe: () => ({ path: `/api/callbacks/replicate/${token}`, json: {} }),
  },
  // A read sent as POST (SPEC §7): checked like any other POST.
  "POST /api/queue/status": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 401,
    probe: (f) => ({ path: "/api/queue/status", json: { requestId: f.job } }),
  },
  "POST /api/queue/cancel": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 401,
    probe: (f) => ({ path: "/api/queue/cancel", json: { requestId: f.jobToCancel } }),
  },
  "GET /api/queue/jobs": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 401,
    probe: (f) => ({ path: `/api/queue/jobs?workflowId=${f.workflow}` }),
  },
  ...RUN_ROUTES,
  "GET /api/queue/events": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 401,
    probe: () => ({ path: "/api/queue/events", stream: true }),
  },
  "POST /api/media": {
    writes: true,
    owner: 201,
    other: 404,
    anonymous: 401,
    links: { edit: 201 },
    probe: (f) => ({
      path: "/api/media",
      form: async () =>
        uploadForm(
          { name: "a.png", type: "image/png", bytes: await pngBytes() },
          { workflowId: f.workflow },
        ),
    }),
  },
  "GET /api/media": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 401,
    probe: (f) => ({ path: `/api/media?workflowId=${f.workflow}` }),
  },
  "DELETE /api/media/:id": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 401,
    probe: (f) => ({ path: `/api/media/${f.mediaToDelete}` }),
  },
  // Public by unguessable path (SPEC §7's public bucket), served inert.
  "GET /api/media/file/*": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 200,
    probe: (f) => ({ path: `/api/media/file/${f.mediaPath}` }),
  },
  // Personal API tokens: managed from an account's session only (a Bearer request is 403,
  // see api-tokens.test.ts); another user's token id is 404.
  ...HEADLESS_ROUTES,
  ...SHARING_ROUTES,
  ...VERSION_ROUTES,
};
