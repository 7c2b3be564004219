import { AUTH_ROUTES, INSTANCE_ROUTES } from "./route-inventory-auth.ts";
import type { Entry } from "./route-inventory-base.ts";
import {
  GENERATION_ROUTES,
  QUEUE_EVENT_ROUTES,
  QUEUE_ROUTES,
} from "./route-inventory-generation.ts";
import { HEADLESS_ROUTES, RUN_ROUTES } from "./route-inventory-headless.ts";
import { FOLDER_ROUTES, WORKFLOW_ROUTES } from "./route-inventory-library.ts";
import { MEDIA_ROUTES } from "./route-inventory-media.ts";
import { SHARING_ROUTES } from "./route-inventory-sharing.ts";
import { VERSION_ROUTES } from "./route-inventory-versions.ts";

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

// Assembled from one file per route group, in the order the suite has always tried them.
export const INVENTORY: Record<string, Entry> = {
  ...INSTANCE_ROUTES,
  ...AUTH_ROUTES,
  ...FOLDER_ROUTES,
  ...WORKFLOW_ROUTES,
  ...GENERATION_ROUTES,
  ...QUEUE_ROUTES,
  ...RUN_ROUTES,
  ...QUEUE_EVENT_ROUTES,
  ...MEDIA_ROUTES,
  // Personal API tokens: managed from an account's session only (a Bearer request is 403,
  // see api-tokens.test.ts); another user's token id is 404.
  ...HEADLESS_ROUTES,
  ...SHARING_ROUTES,
  ...VERSION_ROUTES,
};
