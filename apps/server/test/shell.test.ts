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

  it("serves the built app for / and /auth/callback, JSON 404 for unknown API paths", async () => {
    const webRoot = mkdtempSync(join(tmpdir(), "atelier-web-"));
    writeFileSync(join(webRoot, "index.html"), "<!doctype html><title>Atelier</title>");
    const app = await buildApp(server.ctx, { webRoot });
    for (const url of ["/", "/auth/callback?code=abc"]) {
      const page = await app.inject({ method: "GET", url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body).toContain("<title>Atelier</title>");
    }
    const missing = await app.inject({ method: "GET", url: "/api/nope" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: "Not found" });
    await app.close();
  });
});
