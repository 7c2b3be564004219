import { createHash } from "node:crypto";
import { API_TOKEN_ERRORS, API_TOKEN_LIMITS, WORKFLOW_ERRORS } from "@atelier/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTokens } from "../src/db/schema.ts";
import { bearerClient } from "./helpers/bearer.ts";
import { TestClient } from "./helpers/client.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

interface Listed {
  tokens: { id: string; name: string; prefix: string; createdAt: string; lastUsedAt: unknown }[];
}

describe("personal API tokens: managing them", () => {
  let server: TestServer;
  let alice: TestClient;
  let bob: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    alice = new TestClient(server.url);
    bob = new TestClient(server.url);
    await alice.signUp("alice@example.com");
    await bob.signUp("bob@example.com");
  });
  afterAll(() => server.close());

  const create = (client: TestClient, name: unknown) =>
    client.json<{ id: string; token: string; error?: string }>("POST", "/api/tokens", { name });

  it("creates a token shown once, lists it without its text, and revokes it", async () => {
    const created = await create(alice, "  CI runner  ");
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(["id", "token"]);
    const { id, token } = created.body;
    expect(token).toMatch(/^atl_[A-Za-z0-9_-]{43}$/);

    const listed = await alice.json<Listed>("GET", "/api/tokens");
    expect(listed.status).toBe(200);
    const entry = listed.body.tokens.find((row) => row.id === id);
    expect(entry).toMatchObject({ name: "CI runner", lastUsedAt: null });
    expect(Object.keys(entry ?? {}).sort()).toEqual([
      "createdAt",
      "id",
      "lastUsedAt",
      "name",
      "prefix",
    ]);
    expect(token.startsWith(entry?.prefix ?? "-")).toBe(true);
    expect(entry?.prefix.length).toBeLessThan(12);
    expect(Number.isNaN(Date.parse(entry?.createdAt ?? ""))).toBe(false);
    // Neither the token nor its hash ever appears again.
    const hash = createHash("sha256").update(token).digest("hex");
    const text = JSON.stringify(listed.body);
    expect(text).not.toContain(token);
    expect(text).not.toContain(hash);

    const revoked = await alice.json("DELETE", `/api/tokens/${id}`);
    expect(revoked).toMatchObject({ status: 200, body: { success: true } });
    const after = await alice.json<Listed>("GET", "/api/tokens");
    expect(after.body.tokens.map((row) => row.id)).not.toContain(id);
    expect((await alice.json("DELETE", `/api/tokens/${id}`)).status).toBe(404);
  });

  it("stores only the token's SHA-256", async () => {
    const { id, token } = (await create(alice, "Stored")).body;
    const [row] = await server.ctx.database.db.select().from(apiTokens).where(eq(apiTokens.id, id));
    expect(row?.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(token.startsWith(row?.prefix ?? "-")).toBe(true);
  });

  it("lists newest first and only the caller's own tokens", async () => {
    const first = (await create(alice, "First")).body.id;
    const second = (await create(alice, "Second")).body.id;
    const bobs = (await create(bob, "Bob's")).body.id;
    const ids = (await alice.json<Listed>("GET", "/api/tokens")).body.tokens.map((t) => t.id);
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first));
    expect(ids).not.toContain(bobs);
    expect((await bob.json<Listed>("GET", "/api/tokens")).body.tokens.map((t) => t.id)).toEqual([
      bobs,
    ]);
  });

  it("answers another user's token id as not found, and leaves it working", async () => {
    const { id, token } = (await create(bob, "Bob's second")).body;
    const answer = await alice.json<{ error: string }>("DELETE", `/api/tokens/${id}`);
    expect(answer).toMatchObject({ status: 404, body: { error: API_TOKEN_ERRORS.notFound } });
    expect((await bearerClient(server.url, token)("GET", "/api/workflows")).status).toBe(200);
  });

  it("checks names", async () => {
    for (const [name, error] of [
      ["", API_TOKEN_ERRORS.nameRequired],
      ["   ", API_TOKEN_ERRORS.nameRequired],
      ["x".repeat(API_TOKEN_LIMITS.nameMaxLength + 1), API_TOKEN_ERRORS.nameTooLong],
    ] as const) {
      expect(await create(alice, name)).toMatchObject({ status: 400, body: { error } });
    }
    const missing = await alice.json<{ error: string }>("POST", "/api/tokens", {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/^Invalid request: name:/);
    expect((await create(alice, "x".repeat(API_TOKEN_LIMITS.nameMaxLength))).status).toBe(201);
  });

  it("refuses a request authenticated by a token: a token cannot mint or revoke tokens", async () => {
    const { id, token } = (await create(alice, "Leaked")).body;
    const headless = bearerClient(server.url, token);
    for (const [method, path, body] of [
      ["POST", "/api/tokens", { name: "Another" }],
      ["GET", "/api/tokens", undefined],
      ["DELETE", `/api/tokens/${id}`, undefined],
    ] as const) {
      const answer = await headless<{ error: string }>(method, path, body);
      expect(answer, `${method} ${path}`).toMatchObject({
        status: 403,
        body: { error: API_TOKEN_ERRORS.bearerCannotManage },
      });
    }
    // The same with the owner's cookie alongside: the cookie is dropped, the token decides.
    const withCookie = await headless(
      "POST",
      "/api/tokens",
      { name: "Sneaky" },
      {
        cookie: alice.cookieHeader(),
        origin: server.url,
      },
    );
    expect(withCookie.status).toBe(403);
    const names = (await alice.json<Listed>("GET", "/api/tokens")).body.tokens.map((t) => t.name);
    expect(names).not.toContain("Another");
    expect(names).not.toContain("Sneaky");
  });

  it("needs an account: signed out and anonymous sessions cannot create tokens", async () => {
    const stranger = new TestClient(server.url);
    expect(await create(stranger, "Nope")).toMatchObject({
      status: 401,
      body: { error: WORKFLOW_ERRORS.notAuthenticated },
    });
    const anonymous = new TestClient(server.url);
    expect((await anonymous.json("POST", "/api/auth/sign-in/anonymous", {})).status).toBe(200);
    expect((await create(anonymous, "Nope")).status).toBe(401);
    expect((await anonymous.json("GET", "/api/tokens")).status).toBe(401);
  });

  it(`keeps at most ${API_TOKEN_LIMITS.perUser} tokens per user`, async () => {
    const carol = new TestClient(server.url);
    await carol.signUp("carol@example.com");
    for (let n = 0; n < API_TOKEN_LIMITS.perUser; n++)
      expect((await create(carol, `Token ${n}`)).status).toBe(201);
    expect(await create(carol, "One too many")).toMatchObject({
      status: 400,
      body: { error: API_TOKEN_ERRORS.tooMany },
    });
    const [oldest] = (await carol.json<Listed>("GET", "/api/tokens")).body.tokens.slice(-1);
    await carol.json("DELETE", `/api/tokens/${oldest?.id}`);
    expect((await create(carol, "Room again")).status).toBe(201);
  });
});
