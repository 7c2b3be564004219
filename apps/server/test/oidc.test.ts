import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./helpers/client.ts";
import { type LocalIdp, signInAtIdp, startLocalIdp } from "./helpers/oidc-idp.ts";
import { freePort, startTestServer, type TestServer } from "./helpers/server.ts";

describe("sign-in through a real OpenID Connect provider", () => {
  let idp: LocalIdp;
  let server: TestServer;

  beforeAll(async () => {
    // The server's port must be known before the provider registers its redirect URI.
    const port = await freePort();
    idp = await startLocalIdp(`http://127.0.0.1:${port}/api/auth/callback/oidc`);
    server = await startTestServer({
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
      OIDC_NAME: "Local IdP",
      ADMIN_EMAILS: "grace@example.com",
    });
  });
  afterAll(async () => {
    await server?.close();
    await idp?.close();
  });

  it("goes to the provider, comes back to {origin}/auth/callback signed in", async () => {
    const browser = new TestClient(server.url);
    const start = await browser.json<{ url: string; redirect: boolean }>(
      "POST",
      "/api/auth/sign-in/social",
      {
        provider: "oidc",
        callbackURL: `${server.url}/auth/callback`,
      },
    );
    expect(start.status).toBe(200);
    expect(start.body.url.startsWith(`${idp.issuer}/`)).toBe(true);

    const callback = await signInAtIdp(
      start.body.url,
      "grace@example.com",
      `${server.url}/api/auth/callback/oidc`,
    );
    expect(new URL(callback).searchParams.get("code")).toBeTruthy();

    const landed = await browser.raw("GET", callback.slice(server.url.length));
    expect(landed.status).toBe(302);
    expect(landed.headers.get("location")).toBe(`${server.url}/auth/callback`);

    const session = await browser.json<{ user: { email: string; name: string } }>(
      "GET",
      "/api/auth/get-session",
    );
    expect(session.body.user).toMatchObject({ email: "grace@example.com", name: "grace" });
    expect((await browser.json("GET", "/api/auth/admin-status")).body).toEqual({ isAdmin: true });
    expect((await browser.json("GET", "/api/folders")).status).toBe(200);
  });

  it("lists the configured providers for the sign-in screen", async () => {
    const browser = new TestClient(server.url);
    expect((await browser.json("GET", "/api/auth/providers")).body).toEqual({
      providers: [{ id: "oidc", name: "Local IdP" }],
      passwordReset: false,
    });
  });

  it("still refuses providers that are not configured", async () => {
    const browser = new TestClient(server.url);
    const google = await browser.json("POST", "/api/auth/sign-in/social", {
      provider: "google",
      callbackURL: "/auth/callback",
    });
    expect(google.body).toMatchObject({
      error: "Google sign-in is not configured. Please use email/password sign-in.",
    });
  });
});
