import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

// /api/health and /api/ready: operations.test.ts.
describe("web app shell", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

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

  it("sends the build's brotli or gzip copy by Accept-Encoding; hashed files are immutable, the shell revalidated", async () => {
    const webRoot = mkdtempSync(join(tmpdir(), "atelier-web-"));
    mkdirSync(join(webRoot, "assets"));
    const shell = `<!doctype html><title>Atelier</title>${"<!-- padding -->".repeat(200)}`;
    const script = `console.log(${JSON.stringify("a".repeat(4000))});`;
    writeFileSync(join(webRoot, "index.html"), shell);
    writeFileSync(join(webRoot, "index.html.br"), brotliCompressSync(shell));
    writeFileSync(join(webRoot, "index.html.gz"), gzipSync(shell));
    const asset = join(webRoot, "assets", "index-AbC12_-x.js");
    writeFileSync(asset, script);
    writeFileSync(`${asset}.br`, brotliCompressSync(script));
    writeFileSync(`${asset}.gz`, gzipSync(script));
    const app = await buildApp(server.ctx, { webRoot });
    const get = (url: string, encoding?: string) =>
      app.inject({
        method: "GET",
        url,
        headers: encoding ? { "accept-encoding": encoding } : {},
      });

    const br = await get("/assets/index-AbC12_-x.js", "br, gzip");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const gz = await get("/assets/index-AbC12_-x.js", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await get("/assets/index-AbC12_-x.js");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(script);

    // The shell, at "/" and at an app page: compressed too, and revalidated on every visit.
    for (const url of ["/", "/w/some-workflow"]) {
      const page = await get(url, "br");
      expect(page.headers["content-encoding"], url).toBe("br");
      expect(page.headers["cache-control"], url).toBe("no-cache");
      expect(brotliDecompressSync(page.rawPayload).toString(), url).toBe(shell);
    }
    await app.close();
  });

  it("serves the service worker and the web manifest unhashed and revalidated, so a deploy is seen", async () => {
    const webRoot = mkdtempSync(join(tmpdir(), "atelier-web-"));
    writeFileSync(join(webRoot, "index.html"), "<!doctype html><title>Atelier</title>");
    writeFileSync(join(webRoot, "sw.js"), "self.addEventListener('fetch', () => {});");
    writeFileSync(join(webRoot, "manifest.webmanifest"), JSON.stringify({ name: "Atelier" }));
    const app = await buildApp(server.ctx, { webRoot });
    const worker = await app.inject({ method: "GET", url: "/sw.js" });
    expect(worker.statusCode).toBe(200);
    expect(worker.headers["content-type"]).toMatch(/^(text|application)\/javascript/);
    expect(worker.headers["cache-control"]).toBe("no-cache");
    const manifest = await app.inject({ method: "GET", url: "/manifest.webmanifest" });
    expect(manifest.headers["content-type"]).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers["cache-control"]).toBe("no-cache");
    expect(manifest.json()).toEqual({ name: "Atelier" });
    await app.close();
  });
});
