import { INVITE_HEADER, SIGNUP_MESSAGES } from "@atelier/core";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { user as userTable } from "../src/db/schema.ts";
import { TestClient } from "./helpers/client.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

const PASSWORD = "correct horse battery";

/** A sign-up as the web app sends it, with an invitation when given. */
const signUp = (client: TestClient, email: string, invite?: string) =>
  client.raw("POST", "/api/auth/sign-up/email", {
    body: JSON.stringify({ email, password: PASSWORD, name: email.split("@")[0] }),
    headers: {
      "content-type": "application/json",
      origin: client.baseUrl,
      ...(invite ? { [INVITE_HEADER]: invite } : {}),
    },
  });

const messageOf = async (response: Response) =>
  ((await response.json()) as { message?: string }).message;

describe("who may sign up (issue 23)", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("SIGNUP=closed refuses every new account; anonymous sessions still start", async () => {
    server = await startTestServer({ SIGNUP: "closed" });
    const visitor = new TestClient(server.url);
    const refused = await signUp(visitor, "new@example.com");
    expect(refused.status).toBe(403);
    expect(await messageOf(refused)).toBe(SIGNUP_MESSAGES.closed);
    expect((await visitor.signIn("new@example.com", PASSWORD)).status).toBe(401);
    const anonymous = await visitor.json("POST", "/api/auth/sign-in/anonymous", {});
    expect(anonymous.status).toBe(200);
  });

  it("ALLOWED_EMAIL_DOMAINS limits sign-up to those domains", async () => {
    server = await startTestServer({ ALLOWED_EMAIL_DOMAINS: "example.com, @atelier.test" });
    const visitor = new TestClient(server.url);
    expect((await signUp(visitor, "ada@Example.com")).status).toBe(200);
    expect((await signUp(visitor, "bob@atelier.test")).status).toBe(200);
    const refused = await signUp(visitor, "eve@elsewhere.org");
    expect(refused.status).toBe(403);
    expect(await messageOf(refused)).toBe(
      SIGNUP_MESSAGES.domainNotAllowed(["example.com", "atelier.test"]),
    );
  });

  it("SIGNUP=invite: an admin's invitation lets one person in, once; others need one", async () => {
    server = await startTestServer({ SIGNUP: "invite" });
    const db = server.ctx.database.db;
    // The first admin comes from the database (an operator's promotion).
    await db.insert(userTable).values({
      id: "admin-1",
      name: "Admin",
      email: "admin@example.com",
      emailVerified: true,
      isAdmin: true,
    });
    const { createInvite } = await import("../src/commands/invites.ts");
    const bootstrap = await createInvite(db, "admin-1", { expiresInDays: 1 });
    const admin = new TestClient(server.url);
    expect((await signUp(admin, "root@example.com", bootstrap.token)).status).toBe(200);
    await admin.signIn("root@example.com", PASSWORD);
    const [root] = await db.select().from(userTable).where(eq(userTable.email, "root@example.com"));
    await db
      .update(userTable)
      .set({ isAdmin: true })
      .where(eq(userTable.id, String(root?.id)));

    const visitor = new TestClient(server.url);
    const uninvited = await signUp(visitor, "walk-in@example.com");
    expect(await messageOf(uninvited)).toBe(SIGNUP_MESSAGES.inviteRequired);

    // Only admins invite.
    const member = new TestClient(server.url);
    const memberInvite = await createInvite(db, "admin-1", { expiresInDays: 1 });
    expect((await signUp(member, "member@example.com", memberInvite.token)).status).toBe(200);
    await member.signIn("member@example.com", PASSWORD);
    expect(await member.json("POST", "/api/admin/invites", {})).toMatchObject({
      status: 403,
      body: { error: SIGNUP_MESSAGES.adminsOnly },
    });

    const made = await admin.json<{ invite: { token: string; path: string; email: string } }>(
      "POST",
      "/api/admin/invites",
      { email: "Guest@Example.com" },
    );
    expect(made.status).toBe(201);
    expect(made.body.invite).toMatchObject({ email: "guest@example.com" });
    expect(made.body.invite.path).toBe(`/invite/${made.body.invite.token}`);
    const wrong = await signUp(visitor, "someone@example.com", made.body.invite.token);
    expect(await messageOf(wrong)).toBe(SIGNUP_MESSAGES.inviteForOther);
    expect((await signUp(visitor, "guest@example.com", made.body.invite.token)).status).toBe(200);
    const again = await signUp(
      new TestClient(server.url),
      "guest@example.com",
      made.body.invite.token,
    );
    expect(again.status).toBe(403);
    const twice = await signUp(visitor, "guest2@example.com", bootstrap.token);
    expect(await messageOf(twice)).toBe(SIGNUP_MESSAGES.inviteInvalid);
    const listed = await admin.json<{ invites: { usedAt: string | null }[] }>(
      "GET",
      "/api/admin/invites",
    );
    expect(listed.body.invites.filter((invite) => invite.usedAt !== null)).toHaveLength(3);
  });
});
