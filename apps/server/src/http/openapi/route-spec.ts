import type { z } from "zod";

/**
 * Who may call a route, as the document says it:
 * - `session`: any session (an anonymous browser's too) or an API token;
 * - `account`: a signed-in account's session or an API token;
 * - `optional`: anyone; a session or token decides where the result goes;
 * - `browser`: a signed-in account's session cookie only (a Bearer request is 403);
 * - `provider`: a generation provider's callback, checked by its signature or token;
 * - `public`: no authentication.
 */
export type RouteAuth = "session" | "account" | "optional" | "browser" | "provider" | "public";

/** One row of the API's route table (api-routes.ts). */
export interface ApiRoute {
  /** "METHOD /path" exactly as Fastify registers it (`:id` parameters, `*` wildcards). */
  route: string;
  summary: string;
  tag: string;
  auth: RouteAuth;
  /** The path shown in the document when it differs (a wildcard named for readers). */
  docPath?: string;
  description?: string;
  body?: z.ZodType;
  /** The body is multipart/form-data: these fields plus one `file`. */
  multipart?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /** The success answer's status (200 unless said) and schema, where core has one. */
  status?: number;
  response?: z.ZodType;
  /** The answer is a `text/event-stream` whose events carry this. */
  stream?: z.ZodType | true;
  /** A file (media, the viewer's assets) or a page rather than JSON. */
  produces?: string;
}

type Options = Omit<ApiRoute, "route" | "summary" | "tag" | "auth">;

/** Builds the table rows of one tag: `op("GET /api/x", "Summary", "account", { … })`. */
export const routesOf =
  (tag: string) =>
  (route: string, summary: string, auth: RouteAuth, options: Options = {}): ApiRoute => ({
    route,
    summary,
    tag,
    auth,
    ...options,
  });
