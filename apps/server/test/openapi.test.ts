import { compileErrors, validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_ROUTES } from "../src/http/openapi/api-routes.ts";
import { documentPathOf } from "../src/http/openapi/document.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

interface Document {
  openapi: string;
  paths: Record<string, Record<string, { security?: unknown[]; operationId: string }>>;
  components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
}

describe("GET /api/openapi.json and GET /api/docs", () => {
  let server: TestServer;
  let document: Document;
  beforeAll(async () => {
    server = await startTestServer();
    const response = await fetch(`${server.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    document = (await response.json()) as Document;
  });
  afterAll(() => server.close());

  it("is a valid OpenAPI 3.1 document", async () => {
    expect(document.openapi).toBe("3.1.0");
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
  });

  it("lists every registered /api route, and only those", () => {
    const registered = [...new Set(server.routes.filter((route) => route.includes(" /api/")))];
    const tabled = API_ROUTES.map((entry) => entry.route);
    expect(new Set(tabled).size, "a route listed twice").toBe(tabled.length);
    expect(
      registered.filter((route) => !tabled.includes(route)),
      "registered routes missing from the route table (http/openapi/api-routes.ts)",
    ).toEqual([]);
    expect(
      tabled.filter((route) => !registered.includes(route)),
      "stale table rows",
    ).toEqual([]);
    for (const entry of API_ROUTES) {
      const method = (entry.route.split(" ")[0] ?? "").toLowerCase();
      expect(document.paths[documentPathOf(entry)]?.[method], entry.route).toBeDefined();
    }
  });

  it("documents the token routes and both ways to authenticate", () => {
    const schemes = document.components.securitySchemes;
    expect(schemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(schemes.sessionCookie).toMatchObject({ type: "apiKey", in: "cookie" });
    expect(Object.keys(document.paths["/api/tokens"] ?? {}).sort()).toEqual(["get", "post"]);
    expect(document.paths["/api/tokens/{id}"]?.delete).toBeDefined();
    // Managing tokens takes the session cookie only; the rest takes a token as well.
    expect(document.paths["/api/tokens"]?.post?.security).toEqual([{ sessionCookie: [] }]);
    expect(document.paths["/api/workflows"]?.get?.security).toContainEqual({ bearerAuth: [] });
  });

  it("serves the reference page with same-origin scripts only", async () => {
    const response = await fetch(`${server.url}/api/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = response.headers.get("content-security-policy") ?? "";
    const scriptSrc = csp.split(";").find((part) => part.trim().startsWith("script-src "));
    expect(scriptSrc?.trim()).toBe("script-src 'self'");
    expect(csp).not.toContain("unsafe-eval");
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes = "", body = ""] of scripts) {
      expect(body.trim(), "no inline script").toBe("");
      const src = /\bsrc="([^"]+)"/.exec(attributes)?.[1] ?? "";
      expect(src).toMatch(/^\/api\/docs\/[\w.-]+$/);
      const asset = await fetch(new URL(src, server.url));
      expect(asset.status, src).toBe(200);
      expect(asset.headers.get("content-type")).toMatch(/^text\/javascript/);
      expect(asset.headers.get("x-content-type-options")).toBe("nosniff");
    }
    for (const [, href = ""] of html.matchAll(/<link\b[^>]*\bhref="([^"]+)"/g))
      expect(href).toMatch(/^\/api\/docs\/[\w.-]+$/);
    expect((await fetch(`${server.url}/api/docs/package.json`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/docs/..%2Fpackage.json`)).status).toBe(404);
  });
});
