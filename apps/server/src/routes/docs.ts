import type { FastifyInstance } from "fastify";
import { z } from "zod";
// Read at build time into the bundle (dist/), from the file under tsx and vitest.
import serverPackage from "../../package.json" with { type: "json" };
import type { AppContext } from "../context.ts";
import { API_ROUTES } from "../http/openapi/api-routes.ts";
import { buildOpenApiDocument } from "../http/openapi/document.ts";
import { DOCS_CSP, DOCS_PAGE, loadViewerAssets, type ViewerAsset } from "../http/openapi/viewer.ts";

const { version } = serverPackage;
const zFile = z.object({ file: z.string().max(100) });

/** GET /api/openapi.json (built once, here, from the route table) and its viewer. */
export async function docsRoutes(app: FastifyInstance, ctx: AppContext) {
  const sessionCookie = (await ctx.auth.$context).authCookies.sessionToken.name;
  const document = JSON.stringify(buildOpenApiDocument(API_ROUTES, { version, sessionCookie }));
  // Read on first use: most processes never serve the page.
  let assets: Map<string, ViewerAsset> | null = null;

  app.get("/api/openapi.json", async (_request, reply) =>
    reply.type("application/json; charset=utf-8").send(document),
  );

  app.get("/api/docs", async (_request, reply) =>
    reply
      .header("content-security-policy", DOCS_CSP)
      .header("cache-control", "no-cache")
      .type("text/html; charset=utf-8")
      .send(DOCS_PAGE),
  );

  app.get("/api/docs/:file", async (request, reply) => {
    const { file } = zFile.parse(request.params);
    assets ??= loadViewerAssets();
    const asset = assets.get(file);
    if (!asset) return reply.code(404).send({ error: "Not found" });
    const gzip = /\bgzip\b/.test(String(request.headers["accept-encoding"] ?? ""));
    if (gzip) reply.header("content-encoding", "gzip");
    return reply
      .header("vary", "accept-encoding")
      .header("cache-control", "public, max-age=3600")
      .type(asset.type)
      .send(gzip ? asset.gzipped : asset.body);
  });
}
