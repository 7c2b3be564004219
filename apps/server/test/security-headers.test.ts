import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { PERMISSIONS_POLICY } from "../src/http/security-headers.ts";
import { TestClient } from "./helpers/client.ts";
import { pngBytes, uploadForm } from "./helpers/files.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

/** The shell's policy, exactly (docs/security.md explains each directive). */
const shellPolicy = (publicOrigin: string, https = false) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' ${publicOrigin} data: blob: http: https:`,
    `media-src 'self' ${publicOrigin} data: blob: http: https:`,
    `connect-src 'self' ${publicOrigin} data: blob:`,
    "font-src 'self' data:",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'self'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join(";");
const API_POLICY = "default-src 'none';base-uri 'none';form-action 'none';frame-ancestors 'none'";
const MEDIA_POLICY =
  "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";

function webRoot(): string {
  const root = mkdtempSync(join(tmpdir(), "atelier-web-"));
  writeFileSync(
    join(root, "index.html"),
    '<!doctype html><title>Atelier</title><script type="module" src="/assets/app.js"></script>',
  );
  mkdirSync(join(root, "assets"));
  writeFileSync(join(root, "assets", "app.js"), "console.log('app');");
  return root;
}

type Headers = Record<string, string | string[] | number | undefined>;

/** What every answer carries, whatever it is. */
function expectCommon(headers: Headers, https = false) {
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("no-referrer");
  expect(headers["cross-origin-opener-policy"]).toBe("same-origin");
  if (https) expect(headers["strict-transport-security"]).toBe("max-age=31536000");
  else expect(headers["strict-transport-security"]).toBeUndefined();
}

function expectShell(headers: Headers, publicOrigin: string, https = false) {
  expectCommon(headers, https);
  expect(headers["content-security-policy"]).toBe(shellPolicy(publicOrigin, https));
  expect(headers["x-frame-options"]).toBe("SAMEORIGIN");
  expect(headers["permissions-policy"]).toBe(PERMISSIONS_POLICY);
  expect(headers["cross-origin-resource-policy"]).toBe("same-origin");
}

function expectApi(headers: Headers, https = false) {
  expectCommon(headers, https);
  expect(headers["content-security-policy"]).toBe(API_POLICY);
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["cache-control"]).toBe("no-store");
}

describe("security headers on every answer", () => {
  let server: TestServer;
  let app: FastifyInstance;
  let https: FastifyInstance;
  let alice: TestClient;
  let mediaPath: string;
  let workflow: string;

  beforeAll(async () => {
    server = await startTestServer();
    const root = webRoot();
    app = await buildApp(server.ctx, { webRoot: root });
    // The same server as configured behind TLS (PUBLIC_URL https): HSTS and upgrades.
    https = await buildApp(
      { ...server.ctx, config: { ...server.ctx.config, publicUrl: "https://atelier.example.com" } },
      { webRoot: root },
    );
    alice = new TestClient(server.url);
    await alice.signUp("alice@example.com");
    workflow = (
      await alice.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
        name: "W",
        data: makeWorkflow("W"),
      })
    ).body.workflow.id;
    const upload = await alice.raw("POST", "/api/media", {
      body: uploadForm(
        { name: "a.png", type: "image/png", bytes: await pngBytes() },
        { workflowId: workflow },
      ),
    });
    mediaPath = ((await upload.json()) as { path: string }).path;
  });
  afterAll(async () => {
    await app.close();
    await https.close();
    await server.close();
  });

  it("the app shell, its client routes and its assets: CSP, framing, referrer, features", async () => {
    const origin = server.ctx.config.publicUrl;
    for (const url of ["/", "/auth/callback?code=abc", "/w/some-id", "/assets/app.js"]) {
      const answer = await app.inject({ method: "GET", url });
      expect(answer.statusCode, url).toBe(200);
      expectShell(answer.headers, origin);
    }
    const page = await app.inject({ method: "GET", url: "/" });
    expect(page.body).toContain("<title>Atelier</title>");
  });

  it("JSON: nosniff, no-store, a CSP that loads nothing, on successes and refusals alike", async () => {
    const cookie = alice.cookieHeader();
    const answers = [
      await app.inject({ method: "GET", url: "/api/health" }),
      await app.inject({ method: "GET", url: "/api/folders", headers: { cookie } }),
      await app.inject({ method: "GET", url: `/api/workflows/${workflow}`, headers: { cookie } }),
      await app.inject({ method: "GET", url: "/api/auth/get-session", headers: { cookie } }),
      await app.inject({ method: "GET", url: "/api/folders" }), // 401
      await app.inject({ method: "GET", url: "/api/nope" }), // 404
      await app.inject({
        method: "POST",
        url: "/api/folders",
        headers: { cookie, origin: "http://127.0.0.1:1" },
        payload: { name: "x" },
      }), // 403
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 401, 404, 403]);
    for (const answer of answers) {
      expect(answer.headers["content-type"]).toMatch(/^application\/json/);
      expectApi(answer.headers);
    }
  });

  it("media files keep their sandboxing CSP, their cache time and cross-origin loading", async () => {
    const answer = await app.inject({ method: "GET", url: `/api/media/file/${mediaPath}` });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-type"]).toBe("image/png");
    expectCommon(answer.headers);
    expect(answer.headers["content-security-policy"]).toBe(MEDIA_POLICY);
    expect(answer.headers["cache-control"]).toBe("public, max-age=3600");
    expect(answer.headers["cross-origin-resource-policy"]).toBe("cross-origin");
    expect(answer.headers["x-frame-options"]).toBe("DENY");
  });

  it("event streams carry them too", async () => {
    const controller = new AbortController();
    const response = await fetch(`${server.url}/api/queue/events`, {
      headers: { cookie: alice.cookieHeader() },
      signal: controller.signal,
    });
    controller.abort();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toBe(API_POLICY);
  });

  it("HSTS and upgrade-insecure-requests only when PUBLIC_URL is https", async () => {
    const page = await https.inject({ method: "GET", url: "/" });
    expectShell(page.headers, "https://atelier.example.com", true);
    const json = await https.inject({ method: "GET", url: "/api/health" });
    expectApi(json.headers, true);
    // And not over http (the checks above on `app`): no HSTS, no upgrade.
    const plain = await app.inject({ method: "GET", url: "/" });
    expect(plain.headers["strict-transport-security"]).toBeUndefined();
    expect(String(plain.headers["content-security-policy"])).not.toContain("upgrade");
  });
});
