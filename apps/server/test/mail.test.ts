import { SIGNUP_MESSAGES } from "@atelier/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_MAIL } from "../src/routes/auth.ts";
import { TestClient } from "./helpers/client.ts";
import { linkIn, MailCatcher } from "./helpers/mail-catcher.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "staple battery horse";

/** Follows a link as a browser would, one redirect; where it sends the browser. */
async function follow(client: TestClient, link: string): Promise<string> {
  const url = new URL(link);
  const answer = await client.raw("GET", `${url.pathname}${url.search}`);
  expect(answer.status).toBe(302);
  return answer.headers.get("location") ?? "";
}

describe("account mail over SMTP (verification, password reset)", () => {
  let mail: MailCatcher;
  let server: TestServer;
  beforeAll(async () => {
    mail = await new MailCatcher().listen();
    server = await startTestServer({
      SMTP_URL: mail.url,
      MAIL_FROM: "Atelier <no-reply@atelier.test>",
      ADMIN_EMAILS: "Boss@Example.com,chief@example.com",
    });
  });
  afterAll(async () => {
    await server.close();
    await mail.close();
  });

  it("says a forgotten password can be reset here", async () => {
    const answer = await new TestClient(server.url).json("GET", "/api/auth/providers");
    expect(answer.body).toMatchObject({ passwordReset: true });
  });

  it("mails a verification link on sign-up; following it verifies, and makes an ADMIN_EMAILS address an admin", async () => {
    const boss = new TestClient(server.url);
    await boss.signUp("boss@example.com");
    // Not verified yet: not an admin.
    expect((await boss.json("GET", "/api/auth/admin-status")).body).toEqual({ isAdmin: false });
    const message = await mail.next("boss@example.com");
    expect(message.subject).toBe("Verify your email for Atelier");
    expect(message.from).toContain("<no-reply@atelier.test>");
    const link = linkIn(message);
    expect(link.startsWith(`${server.url}/api/auth/verify-email?token=`)).toBe(true);
    // Followed where the account is signed in, as its owner would.
    expect(await follow(boss, link)).toBe("/");
    expect((await boss.json("GET", "/api/auth/admin-status")).body).toEqual({ isAdmin: true });

    // Another verified address stays a user.
    const other = new TestClient(server.url);
    await other.signUp("other@example.com");
    await follow(other, linkIn(await mail.next("other@example.com")));
    expect((await other.json("GET", "/api/auth/admin-status")).body).toEqual({ isAdmin: false });
  });

  it("a link followed outside its account's session verifies nothing: a squatter on an admin's address stays a user", async () => {
    const squatter = new TestClient(server.url);
    await squatter.signUp("chief@example.com", "squatters password");
    // The real owner of the address clicks the link in their own browser.
    await follow(new TestClient(server.url), linkIn(await mail.next("chief@example.com")));
    expect((await squatter.json("GET", "/api/auth/admin-status")).body).toEqual({ isAdmin: false });
    const boss = new TestClient(server.url);
    await boss.signIn("boss@example.com");
    const listed = await boss.json<{ users: { emailVerified: boolean; isAdmin: boolean }[] }>(
      "GET",
      "/api/admin/users?q=chief",
    );
    expect(listed.body.users).toMatchObject([{ emailVerified: false, isAdmin: false }]);
  });

  it("mails a reset link that sets a new password once; an unknown address gets the same answer and no mail", async () => {
    const owner = new TestClient(server.url);
    await owner.signUp("forgetful@example.com");
    const apiToken = (await owner.json<{ token: string }>("POST", "/api/tokens", { name: "old" }))
      .body.token;
    const visitor = new TestClient(server.url);
    const asked = await visitor.json("POST", "/api/auth/request-password-reset", {
      email: "forgetful@example.com",
      redirectTo: `${server.url}/reset-password`,
    });
    expect(asked.status).toBe(200);
    const unknown = await visitor.json("POST", "/api/auth/request-password-reset", {
      email: "nobody@example.com",
      redirectTo: `${server.url}/reset-password`,
    });
    expect(unknown.body).toEqual(asked.body);

    // The verification mail came first; the reset mail is the second to this address.
    const message = await mail.next("forgetful@example.com", 1);
    expect(message.subject).toBe("Reset your Atelier password");
    const page = await follow(visitor, linkIn(message));
    const token = new URL(page).searchParams.get("token") as string;
    expect(page).toBe(`${server.url}/reset-password?token=${token}`);

    const reset = await visitor.json("POST", "/api/auth/reset-password", {
      token,
      newPassword: NEW_PASSWORD,
    });
    expect(reset.status).toBe(200);
    expect((await visitor.signIn("forgetful@example.com", PASSWORD)).status).toBe(401);
    expect((await visitor.signIn("forgetful@example.com", NEW_PASSWORD)).status).toBe(200);
    // Sessions opened with the old password are gone, and so are its API tokens.
    expect((await owner.json("GET", "/api/auth/admin-status")).status).toBe(401);
    const bearer = { authorization: `Bearer ${apiToken}` };
    expect((await visitor.raw("GET", "/api/workflows", { headers: bearer })).status).toBe(401);
    const again = await visitor.json("POST", "/api/auth/reset-password", {
      token,
      newPassword: "yet another battery",
    });
    expect(again.status).toBe(400);
    expect(mail.to("nobody@example.com")).toEqual([]);
  });

  it("lets an admin issue a one-time reset link for an account; nobody else may", async () => {
    const boss = new TestClient(server.url);
    expect((await boss.signIn("boss@example.com")).status).toBe(200);
    const user = new TestClient(server.url);
    await user.signUp("locked-out@example.com");

    const found = await boss.json<{ users: { id: string; email: string }[] }>(
      "GET",
      "/api/admin/users?q=LOCKED-OUT",
    );
    expect(found.body.users.map((row) => row.email)).toEqual(["locked-out@example.com"]);
    const id = found.body.users[0]?.id as string;
    // Not with an API token, even the admin's own.
    const adminToken = (await boss.json<{ token: string }>("POST", "/api/tokens", { name: "ops" }))
      .body.token;
    const viaToken = await new TestClient(server.url).raw("GET", "/api/admin/users", {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(viaToken.status).toBe(403);
    expect(await viaToken.json()).toEqual({ error: SIGNUP_MESSAGES.adminsNeedSession });
    expect((await user.json("POST", `/api/admin/users/${id}/reset-link`, {})).status).toBe(403);
    expect((await user.json("GET", "/api/admin/users")).status).toBe(403);
    expect((await boss.json("POST", "/api/admin/users/nobody/reset-link", {})).status).toBe(404);

    const issued = await boss.json<{ url: string; expiresAt: string }>(
      "POST",
      `/api/admin/users/${id}/reset-link`,
      {},
    );
    expect(issued.status).toBe(201);
    expect(issued.body.url).toMatch(new RegExp(`^${server.url}/reset-password\\?token=[\\w-]+$`));
    expect(Date.parse(issued.body.expiresAt) - Date.now()).toBeGreaterThan(59 * 60 * 1000);
    const token = new URL(issued.body.url).searchParams.get("token");
    const visitor = new TestClient(server.url);
    const reset = await visitor.json("POST", "/api/auth/reset-password", {
      token,
      newPassword: NEW_PASSWORD,
    });
    expect(reset.status).toBe(200);
    expect((await visitor.signIn("locked-out@example.com", NEW_PASSWORD)).status).toBe(200);
  });
});

describe("without SMTP_URL", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("offers no mailed reset and says what to do instead", async () => {
    const client = new TestClient(server.url);
    expect((await client.json("GET", "/api/auth/providers")).body).toMatchObject({
      passwordReset: false,
    });
    const asked = await client.json("POST", "/api/auth/request-password-reset", {
      email: "someone@example.com",
    });
    expect(asked.status).toBe(400);
    expect(asked.body).toMatchObject({ error: NO_MAIL });
  });
});
