import type { FastifyRequest } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionCacheOf } from "../src/auth/auth.ts";
import { SessionCache, sessionCookieValue } from "../src/auth/session-cache.ts";
import type { SessionUser } from "../src/auth/session-user.ts";
import { TestClient } from "./helpers/client.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

const alice: SessionUser = { id: "u1", email: "a@example.com", name: "A", isAnonymous: false };
const later = (ms: number) => new Date(Date.now() + ms);

describe("the session cache", () => {
  it("answers a validated cookie until its TTL or the session's expiry, whichever is first", () => {
    const cache = new SessionCache(10_000);
    const now = Date.now();
    cache.remember("c1", { user: alice, token: "t1", expiresAt: later(60_000) }, cache.epoch, now);
    cache.remember("c2", { user: alice, token: "t2", expiresAt: later(2000) }, cache.epoch, now);
    expect(cache.lookup("c1", now + 9999)).toEqual(alice);
    expect(cache.lookup("c1", now + 10_000)).toBeNull();
    expect(cache.lookup("c2", now + 1000)).toEqual(alice);
    expect(cache.lookup("c2", now + 2500)).toBeNull();
    expect(cache.lookup("unknown", now)).toBeNull();
  });

  it("forgets a signed-out token or user, and a validation that raced a sign-out", () => {
    const cache = new SessionCache(10_000);
    const session = { user: alice, token: "t1", expiresAt: later(60_000) };
    cache.remember("c1", session, cache.epoch);
    cache.remember("c2", { ...session, token: "t2" }, cache.epoch);
    cache.forgetToken("t1");
    expect(cache.lookup("c1")).toBeNull();
    expect(cache.lookup("c2")).toEqual(alice);
    cache.forgetUser("u1");
    expect(cache.lookup("c2")).toBeNull();
    // Read the session before the sign-out, store it after: not kept.
    const before = cache.epoch;
    cache.forgetToken("t1");
    cache.remember("c1", session, before);
    expect(cache.lookup("c1")).toBeNull();
  });

  it("is off at TTL 0 and bounded in size", () => {
    const off = new SessionCache(0);
    off.remember("c", { user: alice, token: "t", expiresAt: later(60_000) }, off.epoch);
    expect(off.lookup("c")).toBeNull();
    const small = new SessionCache(10_000, 10);
    for (let i = 0; i < 25; i++)
      small.remember(`c${i}`, { user: alice, token: `t${i}`, expiresAt: later(60_000) }, 0);
    expect(small.size).toBeLessThanOrEqual(10);
    expect(small.lookup("c24")).toEqual(alice);
  });

  it("reads the session cookie only when it is there exactly once", () => {
    const request = (cookie?: string) =>
      ({ headers: cookie === undefined ? {} : { cookie } }) as FastifyRequest;
    const name = "better-auth.session_token";
    expect(sessionCookieValue(request(`a=1; ${name}=tok.sig; b=2`), name)).toBe("tok.sig");
    expect(sessionCookieValue(request(`${name}=x; ${name}=y`), name)).toBeNull();
    expect(sessionCookieValue(request("a=1"), name)).toBeNull();
    expect(sessionCookieValue(request(), name)).toBeNull();
    expect(sessionCookieValue(request(`x${name}=tok`), name)).toBeNull();
  });
});

describe("job status polls through the session cache", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOCAL_PROVIDER_STEP_MS: "60000" });
  });
  afterAll(() => server.close());

  /** A signed-in browser with one job; answers how to poll it with a given cookie header. */
  async function browserWithJob(client: TestClient) {
    const started = await client.json<{ requestId: string }>("POST", "/api/generate/flux-pro", {
      nodeId: "n1",
      inputs: { prompt: "a lighthouse" },
    });
    expect(started.status).toBe(202);
    const body = JSON.stringify({ requestId: started.body.requestId });
    return (cookie: string) =>
      fetch(`${server.url}/api/queue/status`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json", origin: server.url },
        body,
      }).then((response) => response.status);
  }

  it("stops answering a signed-out session at once", async () => {
    const client = new TestClient(server.url);
    await client.signUp("cache-signout@example.com");
    const poll = await browserWithJob(client);
    const cookie = client.cookieHeader();
    expect(await poll(cookie)).toBe(200);
    expect(await poll(cookie)).toBe(200);
    expect(sessionCacheOf(server.ctx.auth).size).toBeGreaterThan(0);
    expect((await client.json("POST", "/api/auth/sign-out", {})).status).toBe(200);
    expect(await poll(cookie)).toBe(401);
  });

  it("stops answering a session revoked from another device at once", async () => {
    const laptop = new TestClient(server.url);
    await laptop.signUp("cache-revoke@example.com");
    const phone = new TestClient(server.url);
    expect((await phone.signIn("cache-revoke@example.com")).status).toBe(200);
    const poll = await browserWithJob(phone);
    expect(await poll(phone.cookieHeader())).toBe(200);
    const revoked = await laptop.json("POST", "/api/auth/revoke-other-sessions", {});
    expect(revoked.status).toBe(200);
    expect(await poll(phone.cookieHeader())).toBe(401);
    // The revoking device's own session goes on (the job is that user's too).
    expect(await poll(laptop.cookieHeader())).toBe(200);
  });

  it("serves anonymous sessions, and no one else's job", async () => {
    const anonymous = new TestClient(server.url);
    expect((await anonymous.json("POST", "/api/auth/sign-in/anonymous", {})).status).toBe(200);
    const poll = await browserWithJob(anonymous);
    expect(await poll(anonymous.cookieHeader())).toBe(200);
    expect(await poll(anonymous.cookieHeader())).toBe(200);
    const other = new TestClient(server.url);
    await other.signUp("cache-other@example.com");
    expect(await poll(other.cookieHeader())).toBe(404);
    expect(await poll(other.cookieHeader())).toBe(404);
    expect(await poll("better-auth.session_token=forged.signature")).toBe(401);
  });
});
