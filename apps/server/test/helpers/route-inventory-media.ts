import { pngBytes, uploadForm } from "./files.ts";
import type { Entry } from "./route-inventory-base.ts";

/** Media uploads, listings and files in the route inventory. */
export const MEDIA_ROUTES: Record<string, Entry> = {
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
};
