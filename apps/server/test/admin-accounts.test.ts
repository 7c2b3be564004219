import { ACCOUNT_MESSAGES } from "@atelier/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user as userTable } from "../src/db/schema.ts";
import { TestClient } from "./helpers/client.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

interface Listed {
  users: { id: string; email: string; disabled: boolean; isAdmin: boolean }[];
}

describe("admins disable and enable accounts (PATCH /api/admin/users/:id)", () => {
  let server: TestServer;
  let admin: TestClient;
  let adminId: string;
  beforeAll(async () => {
    server = await startTestServer();
    admin = new TestClient(server.url);
    adminId = (await admin.signUp("admin@example.com")).user.id;
    await server.ctx.database.db
      .update(userTable)
      .set({ isAdmin: true })
      .where(eq(userTable.id, adminId));
  });
  afterAll(() => server.close());

  it("lists accounts only, newest first, found by address", async () => {
    await new TestClient(server.url).json("POST", "/api/auth/sign-in/anonymous", {});
    await new TestClient(server.url).signUp("listed@example.com");
    const all = await admin.json<Listed>("GET", "/api/admin/users");
    expect(all.body.users.map((row) => row.email)).toEqual([
      "listed@example.com",
      "admin@example.com",
    ]);
    expect(all.body.users[1]).toMatchObject({ isAdmin: true, disabled: false });
    const found = await admin.json<Listed>("GET", "/api/admin/users?q=LIST");
    expect(found.body.users.map((row) => row.email)).toEqual(["listed@example.com"]);
    expect((await admin.json<Listed>("GET", "/api/admin/users?q=%25")).body.users).toEqual([]);
  });

  it("a disabled account loses its sessions and tokens and cannot sign in; enabled, it can again", async () => {
    const mallory = new TestClient(server.url);
    const { user } = await mallory.signUp("mallory@example.com");
    const token = (await mallory.json<{ token: string }>("POST", "/api/tokens", { name: "script" }))
      .body.token;
    const bearer = { authorization: `Bearer ${token}` };
    expect((await mallory.raw("GET", "/api/workflows", { headers: bearer })).status).toBe(200);

    // Only admins may; nobody may disable themselves.
    expect(
      (await mallory.json("PATCH", `/api/admin/users/${adminId}`, { disabled: true })).status,
    ).toBe(403);
    const self = await admin.json<{ error: string }>("PATCH", `/api/admin/users/${adminId}`, {
      disabled: true,
    });
    expect(self.status).toBe(400);
    expect(self.body.error).toBe(ACCOUNT_MESSAGES.notYourself);
    expect(
      (await admin.json("PATCH", "/api/admin/users/no-such-user", { disabled: true })).status,
    ).toBe(404);

    const disabled = await admin.json<{ user: { disabled: boolean } }>(
      "PATCH",
      `/api/admin/users/${user.id}`,
      { disabled: true },
    );
    expect(disabled.status).toBe(200);
    expect(disabled.body.user.disabled).toBe(true);
    expect((await mallory.json("GET", "/api/workflows")).status).toBe(401);
    expect(
      (await new TestClient(server.url).raw("GET", "/api/workflows", { headers: bearer })).status,
    ).toBe(401);
    const again = await new TestClient(server.url).signIn("mallory@example.com");
    expect(again.status).toBe(403);
    expect(again.body).toMatchObject({ message: ACCOUNT_MESSAGES.disabled });

    await admin.json("PATCH", `/api/admin/users/${user.id}`, { disabled: false });
    const back = new TestClient(server.url);
    expect((await back.signIn("mallory@example.com")).status).toBe(200);
    expect((await back.json("GET", "/api/workflows")).status).toBe(200);
    expect((await back.raw("GET", "/api/workflows", { headers: bearer })).status).toBe(200);
  });
});
