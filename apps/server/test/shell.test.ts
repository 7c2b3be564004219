import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

describe("web app shell and health", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("reports health of database and storage", async () => {
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, db: true, queue: true, storage: true });
  });

  it("serves the built app for the app's pages, JSON 404 for unknown API paths", async () => {
    const webRoot = mkdtempSync(join(tmpdir(), "atelier-web-"));
    writeFileSync(join(webRoot, "index.html"), "<!doctype html><title>Atelier</title>");
    const app = await buildApp(server.ctx, { webRoot });
    const home = await app.inject({ method: "GET", url: "/" });
    expect(home.headers["content-security-policy"]).toContain("default-src 'self'");
    // The web app's routes (apps/web/src/app/routes.ts): workflows in the cloud and on the
    // device, the sign-in return, and the share and app pages to come.
    const pages = [
      "/",
      "/auth/callback?code=abc",
      "/w/0b6f4c1e-1d2a-4f5b-9c3d-2e1f0a9b8c7d",
      "/w/0b6f4c1e-1d2a-4f5b-9c3d-2e1f0a9b8c7d?v=3",
      "/local/5d1a2b3c",
      "/s/a-share-token",
      "/a/my-app",
    ];
    for (const url of pages) {
      const page = await app.inject({ method: "GET", url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain("<title>Atelier</title>");
      // The shell's own policy, as at "/".
      expect(page.headers["content-security-policy"], url).toBe(
        home.headers["content-security-policy"],
      );
    }
    const missing = await app.inject({ method: "GET", url: "/api/nope" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: "Not found" });
    await app.close();
  });
});
