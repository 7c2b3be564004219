import type { Entry } from "./route-inventory-base.ts";

/** Version history (issue 24): whoever may save the workflow may use it; others get 404. */
export const VERSION_ROUTES: Record<string, Entry> = {
  "GET /api/workflows/:id/versions": {
    writes: false,
    owner: 200,
    other: 404,
    anonymous: 401,
    links: { edit: 200 },
    probe: (f) => ({ path: `/api/workflows/${f.workflow}/versions` }),
  },
  "GET /api/workflows/:id/versions/:v": {
    writes: false,
    owner: 200,
    other: 404,
    anonymous: 401,
    links: { edit: 200 },
    probe: (f) => ({ path: `/api/workflows/${f.workflow}/versions/1` }),
  },
  "PATCH /api/workflows/:id/versions/:v": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 401,
    links: { edit: 200 },
    probe: (f) => ({ path: `/api/workflows/${f.workflow}/versions/1`, json: { name: "First" } }),
  },
  "POST /api/workflows/:id/versions/:v/restore": {
    writes: true,
    owner: 200,
    other: 404,
    anonymous: 401,
    links: { edit: 200 },
    probe: (f) => ({ path: `/api/workflows/${f.workflow}/versions/1/restore`, json: {} }),
  },
};
