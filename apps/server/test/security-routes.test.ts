import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CROSS_ORIGIN_ERRORS } from "../src/http/same-origin.ts";
import { pngBytes, uploadForm } from "./helpers/files.ts";
import { buildRouteFixture } from "./helpers/route-fixture.ts";
import { type Fixture, INVENTORY, type Probe, unique } from "./helpers/route-inventory.ts";
import { freePort, startTestServer, type TestServer } from "./helpers/server.ts";

// The inventory and its rules: helpers/route-inventory.ts.

interface Caller {
  cookie?: string;
  /** null: no Origin header at all. */
  origin: string | null;
  secFetchSite?: string;
  authorization?: string;
}

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

async function call(
  baseUrl: string,
  method: string,
  probe: Probe,
  caller: Caller,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (caller.cookie) headers.cookie = caller.cookie;
  if (caller.origin !== null) headers.origin = caller.origin;
  if (caller.secFetchSite) headers["sec-fetch-site"] = caller.secFetchSite;
  if (caller.authorization) headers.authorization = caller.authorization;
  let body: BodyInit | undefined;
  if (probe.form) body = await probe.form();
  else if (probe.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(probe.json);
  }
  const controller = new AbortController();
  const response = await fetch(new URL(probe.path, baseUrl), {
    method,
    headers,
    redirect: "manual",
    signal: controller.signal,
    ...(body !== undefined ? { body } : {}),
  });
  if (probe.stream && response.status === 200) {
    controller.abort();
    return { status: response.status, headers: response.headers, body: null };
  }
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a media file): kept as text.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

function splitKey(key: string): { method: string; url: string } {
  const [method, url] = key.split(" ") as [string, string];
  return { method, url };
}

describe("security: route inventory × callers", () => {
  let server: TestServer;
  let fixture: Fixture;
  let aliceCookie: string;
  let bobCookie: string;
  let foreign: string;

  beforeAll(async () => {
    server = await startTestServer();
    // Another port of the same host: same site, another origin.
    foreign = `http://127.0.0.1:${await freePort()}`;
    const built = await buildRouteFixture(server);
    fixture = built.fixture;
    const { alice, bob } = built;
    aliceCookie = alice.cookieHeader();
    bobCookie = bob.cookieHeader();
  });
  afterAll(() => server.close());

  it("has an entry for every registered route, and a route for every entry", () => {
    const registered = [...new Set(server.routes)].sort();
    const listed = Object.keys(INVENTORY).sort();
    expect(registered, "routes without an inventory entry (left) or stale entries").toEqual(listed);
    // The count the issue asked to see; a change here is a change of the API's surface.
    console.info(`security inventory: ${registered.length} routes`);
    for (const key of listed) {
      const { method } = splitKey(key);
      expect(INVENTORY[key]?.writes, `${key}: only GET routes are reads`).toBe(method !== "GET");
    }
  });

  it("answers owner, other user, anonymous, no Origin and foreign Origin as listed", async () => {
    const failures: string[] = [];
    const check = (key: string, who: string, answer: Answer, expected: number, body?: unknown) => {
      if (answer.status !== expected)
        failures.push(
          `${key} as ${who}: ${answer.status}, expected ${expected} ${JSON.stringify(answer.body).slice(0, 200)}`,
        );
      else if (body !== undefined && JSON.stringify(answer.body) !== JSON.stringify(body))
        failures.push(`${key} as ${who}: ${JSON.stringify(answer.body)}`);
      if (answer.headers.get("x-content-type-options") !== "nosniff")
        failures.push(`${key} as ${who}: no nosniff`);
      const type = answer.headers.get("content-type") ?? "";
      if (type.startsWith("application/json") && answer.headers.get("cache-control") !== "no-store")
        failures.push(`${key} as ${who}: JSON without Cache-Control: no-store`);
    };
    for (const [key, entry] of Object.entries(INVENTORY)) {
      const { method } = splitKey(key);
      const guarded = entry.writes && !entry.exempt;
      const owner: Caller = { cookie: aliceCookie, origin: server.url };
      // Refusals first: they must change nothing the owner's own request then finds.
      const foreignAnswer = await call(server.url, method, await entry.probe(fixture), {
        cookie: aliceCookie,
        origin: foreign,
      });
      const bare = await call(server.url, method, await entry.probe(fixture), {
        cookie: aliceCookie,
        origin: null,
      });
      const sameSite = await call(server.url, method, await entry.probe(fixture), {
        cookie: aliceCookie,
        origin: null,
        secFetchSite: "same-site",
      });
      if (guarded) {
        check(key, "foreign Origin", foreignAnswer, 403, {
          error: CROSS_ORIGIN_ERRORS.foreign,
          reason: "cross-origin",
        });
        check(key, "no Origin", bare, 403, {
          error: CROSS_ORIGIN_ERRORS.missing(server.url),
          reason: "no-origin",
        });
        check(key, "Sec-Fetch-Site: same-site", sameSite, 403);
      } else if (!entry.writes) {
        check(key, "foreign Origin", foreignAnswer, entry.owner);
        check(key, "no Origin", bare, entry.owner);
        check(key, "Sec-Fetch-Site: same-site", sameSite, entry.owner);
      } else {
        // Exempt: answered on its own terms, and never with the caller's cookie.
        check(key, "foreign Origin", foreignAnswer, entry.anonymous);
        check(key, "no Origin", bare, entry.anonymous);
      }
      const anonymous = await call(server.url, method, await entry.probe(fixture), {
        origin: server.url,
      });
      check(key, "anonymous", anonymous, entry.anonymous);
      const other = await call(server.url, method, await entry.probe(fixture), {
        cookie: bobCookie,
        origin: server.url,
      });
      check(key, "other user", other, entry.other);
      check(
        key,
        "owner",
        await call(server.url, method, await entry.probe(fixture), owner),
        entry.owner,
      );
    }
    expect(failures).toEqual([]);
  });

  it("takes Sec-Fetch-Site: same-origin without Origin, refuses Origin null and other sites", async () => {
    const probe = { path: "/api/folders", json: { name: `Via fetch metadata ${unique()}` } };
    const sameOrigin = await call(server.url, "POST", probe, {
      cookie: aliceCookie,
      origin: null,
      secFetchSite: "same-origin",
    });
    expect(sameOrigin.status).toBe(201);
    for (const caller of [
      { origin: "null" },
      { origin: "https://evil.example" },
      { origin: server.url.replace("127.0.0.1", "localhost") },
      { origin: `${server.url}.evil.example` },
      { origin: null, secFetchSite: "cross-site" },
      { origin: null, secFetchSite: "none" },
    ]) {
      const answer = await call(server.url, "POST", probe, { cookie: aliceCookie, ...caller });
      expect(answer.status, JSON.stringify(caller)).toBe(403);
    }
    // No cookie and no Origin: nothing ambient to abuse (a script signing in); allowed.
    const script = await call(
      server.url,
      "POST",
      { path: "/api/auth/sign-in/email", json: { email: "bob@example.com", password: "nope" } },
      { origin: null },
    );
    expect(script.status).toBe(401);
  });

  it("lets Bearer requests through the origin check but never with the cookie", async () => {
    const answer = await call(
      server.url,
      "POST",
      { path: "/api/folders", json: { name: "Via token" } },
      { cookie: aliceCookie, origin: foreign, authorization: "Bearer not-a-real-token" },
    );
    // Without the cookie only the token counts, and an unknown token is refused.
    expect(answer.status).toBe(401);
  });

  it("does not let a callback-looking path reach another route", async () => {
    // fetch resolves "/api/callbacks/../folders" itself (to /api/folders: refused, 403);
    // the encoded dots reach the server as they are and match no route.
    for (const path of ["/api/callbacks/../folders", "/api/callbacks/%2e%2e/folders"]) {
      const answer = await call(
        server.url,
        "POST",
        { path, json: { name: "Sneaky" } },
        { cookie: aliceCookie, origin: foreign },
      );
      expect([403, 404], `${path}: ${answer.status}`).toContain(answer.status);
    }
    const folders = await fixture.alice.json<{ folders: { name: string }[] }>(
      "GET",
      "/api/folders",
    );
    expect(folders.body.folders.map((folder) => folder.name)).not.toContain("Sneaky");
  });

  it("refuses a cross-origin upload before storing anything", async () => {
    const list = async () =>
      (
        await fixture.alice.json<{ media: unknown[] }>(
          "GET",
          `/api/media?workflowId=${fixture.workflow}`,
        )
      ).body.media.length;
    const before = await list();
    const big = Buffer.alloc(4 * 1024 * 1024, 1);
    for (const origin of [foreign, null]) {
      const answer = await call(
        server.url,
        "POST",
        {
          path: "/api/media",
          form: async () =>
            uploadForm(
              { name: "a.png", type: "image/png", bytes: Buffer.concat([await pngBytes(), big]) },
              { workflowId: fixture.workflow },
            ),
        },
        { cookie: aliceCookie, origin },
      );
      expect(answer.status).toBe(403);
    }
    expect(await list()).toBe(before);
  });
});
