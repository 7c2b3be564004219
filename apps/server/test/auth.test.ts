import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./helpers/client.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

describe("sign-in (Better Auth at /api/auth/*)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      ADMIN_EMAILS: "boss@example.com",
      GITHUB_CLIENT_ID: "gh-id",
      GITHUB_CLIENT_SECRET: "gh-secret",
    });
  });
  afterAll(() => server.close());

  it("signs up, signs in, reads the session, signs out and in again", async () => {
    const client = new TestClient(server.url);
    const credentials = JSON.stringify({
      email: "ada@example.com",
      password: "correct horse battery",
      name: "Ada",
    });
    const headers = { "content-type": "application/json", origin: server.url };
    const signUp = await client.raw("POST", "/api/auth/sign-up/email", {
      body: credentials,
      headers,
    });
    expect(signUp.status).toBe(200);
    // Sign-up opens no session (it would tell who has an account): the client signs in next.
    expect(signUp.headers.getSetCookie()).toEqual([]);
    const response = await client.raw("POST", "/api/auth/sign-in/email", {
      body: credentials,
      headers,
    });
    expect(response.status).toBe(200);
    const cookie = response.headers
      .getSetCookie()
      .find((line) => line.startsWith("better-auth.session_token="));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);

    const session = await client.json<{ user: { email: string } }>("GET", "/api/auth/get-session");
    expect(session.body.user.email).toBe("ada@example.com");

    expect((await client.json("POST", "/api/auth/sign-out", {})).status).toBe(200);
    expect((await client.json("GET", "/api/auth/get-session")).body).toBeNull();

    expect((await client.signIn("ada@example.com", "wrong password")).status).toBe(401);
    expect((await client.signIn("ada@example.com")).status).toBe(200);
    expect(
      (await client.json<{ user: { email: string } }>("GET", "/api/auth/get-session")).body.user
        .email,
    ).toBe("ada@example.com");
  });

  it("answers SPEC's message for a provider that is not configured, naming it", async () => {
    const client = new TestClient(server.url);
    const google = await client.json("POST", "/api/auth/sign-in/social", {
      provider: "google",
      callbackURL: "/auth/callback",
    });
    expect(google.status).toBe(400);
    expect(google.body).toMatchObject({
      error: "Google sign-in is not configured. Please use email/password sign-in.",
    });
    const okta = await client.json("POST", "/api/auth/sign-in/social", {
      provider: "okta",
      callbackURL: "/auth/callback",
    });
    expect(okta.body).toMatchObject({
      error: "Okta sign-in is not configured. Please use email/password sign-in.",
    });
    // A configured provider starts its redirect, back to {origin}/auth/callback.
    const github = await client.json<{ url: string }>("POST", "/api/auth/sign-in/social", {
      provider: "github",
      callbackURL: `${server.url}/auth/callback`,
    });
    expect(github.status).toBe(200);
    expect(new URL(github.body.url).hostname).toBe("github.com");
    expect(new URL(github.body.url).searchParams.get("redirect_uri")).toBe(
      `${server.url}/api/auth/callback/github`,
    );
  });

  it("reports the admin flag from the database on every call", async () => {
    const anonymous = new TestClient(server.url);
    expect((await anonymous.json("GET", "/api/auth/admin-status")).status).toBe(401);

    // An unverified address earns nothing: anyone could have signed up with it.
    const boss = new TestClient(server.url);
    const { user } = await boss.signUp("Boss@Example.com");
    expect((await boss.json("GET", "/api/auth/admin-status")).body).toEqual({ isAdmin: false });
    const { user: userTable } = await import("../src/db/schema.ts");
    const { eq } = await import("drizzle-orm");
    const { promoteAdmins } = await import("../src/auth/auth.ts");
    const db = server.ctx.database.db;
    await db.update(userTable).set({ emailVerified: true }).where(eq(userTable.id, user.id));
    await promoteAdmins(db, server.ctx.config.adminEmails);
    expect((await boss.json("GET", "/api/auth/admin-status")).body).toEqual({ isAdmin: true });
    const worker = new TestClient(server.url);
    await worker.signUp("worker@example.com");
    expect((await worker.json("GET", "/api/auth/admin-status")).body).toEqual({ isAdmin: false });

    // A demotion takes effect at once: no cache on the server.
    await db.update(userTable).set({ isAdmin: false }).where(eq(userTable.id, user.id));
    expect((await boss.json("GET", "/api/auth/admin-status")).body).toEqual({ isAdmin: false });
  });

  it("does not let a user make themselves admin at sign-up", async () => {
    const client = new TestClient(server.url);
    const result = await client.json("POST", "/api/auth/sign-up/email", {
      email: "sneaky@example.com",
      password: "correct horse battery",
      name: "Sneaky",
      isAdmin: true,
    });
    if (result.status === 200) {
      expect((await client.signIn("sneaky@example.com")).status).toBe(200);
      expect((await client.json("GET", "/api/auth/admin-status")).body).toEqual({ isAdmin: false });
    } else expect(result.status).toBe(400);
  });
});

describe("sign-in from non-browser clients and over https", () => {
  it("lets a non-browser client sign up without Origin, but changes with cookies need one", async () => {
    const server = await startTestServer();
    try {
      const post = (
        path: string,
        body: unknown,
        headers: Record<string, string> = {},
        cookie = "",
      ) =>
        fetch(`${server.url}${path}`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(cookie ? { cookie } : {}),
            ...headers,
          },
          body: JSON.stringify(body),
        });
      const signUp = await post("/api/auth/sign-up/email", {
        email: "cli@example.com",
        password: "correct horse battery",
        name: "Cli",
      });
      expect(signUp.status).toBe(200);
      const signIn = await post("/api/auth/sign-in/email", {
        email: "cli@example.com",
        password: "correct horse battery",
      });
      expect(signIn.status).toBe(200);
      const cookie = signIn.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; ");
      // With cookies and neither Origin nor Sec-Fetch-Site: refused (docs/security.md).
      const bare = await post("/api/auth/sign-out", {}, {}, cookie);
      expect(bare.status).toBe(403);
      expect(await bare.json()).toEqual({
        error: `Cross-origin request refused: a request that carries cookies and changes data must say where it comes from. Browsers send Origin themselves; a script must send "Origin: ${server.url}".`,
        reason: "no-origin",
      });
      expect((await post("/api/auth/sign-out", {}, { origin: server.url }, cookie)).status).toBe(
        200,
      );
    } finally {
      await server.close();
    }
  });

  it("marks the session cookie Secure when PUBLIC_URL is https", async () => {
    const server = await startTestServer({ PUBLIC_URL: "https://atelier.example.com" });
    try {
      const post = (path: string) =>
        fetch(`${server.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: "https://atelier.example.com" },
          body: JSON.stringify({
            email: "tls@example.com",
            password: "correct horse battery",
            name: "Tls",
          }),
        });
      expect((await post("/api/auth/sign-up/email")).status).toBe(200);
      const response = await post("/api/auth/sign-in/email");
      expect(response.status).toBe(200);
      const cookie = response.headers
        .getSetCookie()
        .find((line) => line.includes("session_token="));
      expect(cookie).toMatch(/; Secure/i);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
    } finally {
      await server.close();
    }
  });
});

describe("sign-in rate limit", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_SIGN_IN_PER_MINUTE: "3" });
  });
  afterAll(() => server.close());

  it("answers 429 after too many sign-in attempts from one address", async () => {
    const client = new TestClient(server.url);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++)
      statuses.push((await client.signIn("nobody@example.com")).status);
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses[3]).toBe(429);
    // Neither a forged X-Forwarded-For nor a dotted path gets round the limit.
    const forged = await client.raw("POST", "/api/auth/sign-in/email", {
      body: JSON.stringify({ email: "nobody@example.com", password: "x" }),
      headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.9" },
    });
    expect(forged.status).toBe(429);
    const dotted = await server.app.inject({
      method: "POST",
      url: "/api/auth/./sign-in/email",
      payload: { email: "nobody@example.com", password: "x" },
    });
    expect([404, 429]).toContain(dotted.statusCode);
  });
});
