import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";

describe("server app", () => {
  it("answers health and serves the web app shell for client routes", async () => {
    const webRoot = mkdtempSync(join(tmpdir(), "atelier-web-"));
    writeFileSync(join(webRoot, "index.html"), "<!doctype html><title>Atelier</title>");
    const app = await buildApp({ webRoot });
    const health = await app.inject({ method: "GET", url: "/api/health" });
    expect(health.json()).toEqual({ ok: true });
    const callback = await app.inject({ method: "GET", url: "/auth/callback?code=x" });
    expect(callback.statusCode).toBe(200);
    expect(callback.body).toContain("<title>Atelier</title>");
    const missing = await app.inject({ method: "GET", url: "/api/nope" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: "Not found" });
    await app.close();
  });
});
