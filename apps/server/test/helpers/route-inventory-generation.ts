import { type Entry, type Fixture, unique } from "./route-inventory-base.ts";

const fetchQuery = (f: Fixture) => `requestId=${f.job}&nodeId=n1&workflowId=${f.workflow}`;
const token = "ab".repeat(24);

/** Generation (submit, fetch, utilities) and provider callbacks in the route inventory. */
export const GENERATION_ROUTES: Record<string, Entry> = {
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
};

/** The generation queue's reads and cancel in the route inventory. */
export const QUEUE_ROUTES: Record<string, Entry> = {
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
};

/** The queue's event stream (listed after the runs' routes, as it always was). */
export const QUEUE_EVENT_ROUTES: Record<string, Entry> = {
  "GET /api/queue/events": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 401,
    probe: () => ({ path: "/api/queue/events", stream: true }),
  },
};
