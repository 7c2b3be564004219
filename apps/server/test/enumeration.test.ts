import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./helpers/client.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

/** The JSON's keys and value types, recursively: what a body "looks like". */
const shapeOf = (value: unknown): unknown =>
  value && typeof value === "object"
    ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shapeOf(item)]))
    : value === null
      ? "null"
      : typeof value;

describe("amplification: copying or moving the same workflow many times", () => {
  let server: TestServer;
  let alice: TestClient;
  let ids: string[];
  beforeAll(async () => {
    server = await startTestServer();
    alice = new TestClient(server.url);
    await alice.signUp("copier@example.com");
    ids = [];
    for (const name of ["One", "Two"]) {
      const created = await alice.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
        name,
        data: makeWorkflow(name),
      });
      ids.push(created.body.workflow.id);
    }
  });
  afterAll(() => server.close());

  const count = async () =>
    (await alice.json<{ workflows: unknown[] }>("GET", "/api/workflows")).body.workflows.length;

  it("copies a workflow named 100 times once", async () => {
    const [one, two] = ids as [string, string];
    const copied = await alice.json<{ workflowIds: string[] }>(
      "POST",
      "/api/folders/unfiled/workflows",
      { workflowIds: [...Array(99).fill(one), two] },
    );
    expect(copied.status).toBe(201);
    expect(copied.body.workflowIds).toHaveLength(2);
    expect(await count()).toBe(4);
  });

  it("moves a workflow named 100 times once", async () => {
    const folder = await alice.json<{ folder: { id: string } }>("POST", "/api/folders", {
      name: "Target",
    });
    const moved = await alice.json("PUT", `/api/folders/${folder.body.folder.id}/workflows`, {
      workflowIds: Array(100).fill(ids[0]),
    });
    expect(moved).toMatchObject({ status: 200, body: { moved: 1 } });
  });

  it("refuses more than 100 ids, repeated or not, before doing anything", async () => {
    for (const method of ["POST", "PUT"]) {
      const answer = await alice.json(method, "/api/folders/unfiled/workflows", {
        workflowIds: Array(101).fill(ids[0]),
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        error: "Invalid request: workflowIds: Too big: expected array to have <=100 items",
      });
    }
    expect(await count()).toBe(4);
  });
});

describe("enumeration: sign-up does not tell who has an account", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await new TestClient(server.url).signUp("taken@example.com", "the owner's password");
  });
  afterAll(() => server.close());

  const signUp = async (email: string) => {
    const client = new TestClient(server.url);
    const response = await client.raw("POST", "/api/auth/sign-up/email", {
      body: JSON.stringify({ email, password: "an attacker's guess", name: "Probe" }),
      headers: { "content-type": "application/json" },
    });
    return {
      client,
      status: response.status,
      cookies: response.headers.getSetCookie(),
      body: await response.json(),
    };
  };

  it("answers a taken address exactly like a new one: 200, same body shape, no session", async () => {
    const fresh = await signUp("fresh@example.com");
    const taken = await signUp("taken@example.com");
    for (const answer of [fresh, taken]) {
      expect(answer.status).toBe(200);
      expect(answer.cookies).toEqual([]);
      expect(answer.body.token).toBeNull();
      expect(answer.body.user).toMatchObject({ name: "Probe", emailVerified: false, image: null });
    }
    expect(shapeOf(taken.body)).toEqual(shapeOf(fresh.body));
    expect(taken.body.user.email).toBe("taken@example.com");
    // Neither sign-up left a session behind.
    expect((await taken.client.json("GET", "/api/auth/get-session")).body).toBeNull();
    expect((await fresh.client.json("GET", "/api/auth/get-session")).body).toBeNull();
  });

  it("signing in next works for the new account and fails alike for a taken one", async () => {
    const fresh = new TestClient(server.url);
    expect((await fresh.signIn("fresh@example.com", "an attacker's guess")).status).toBe(200);
    const taken = await new TestClient(server.url).signIn(
      "taken@example.com",
      "an attacker's guess",
    );
    const nobody = await new TestClient(server.url).signIn(
      "nobody@example.com",
      "an attacker's guess",
    );
    expect(taken.status).toBe(401);
    expect(taken.body).toEqual(nobody.body);
    // The owner's account is untouched.
    const owner = new TestClient(server.url);
    const signedIn = await owner.signIn("taken@example.com", "the owner's password");
    expect(signedIn.status).toBe(200);
    expect((signedIn.body as { user: { name: string } }).user.name).toBe("taken");
  });
});
