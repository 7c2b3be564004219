import { APP_MESSAGES, SHARE_MESSAGES, WORKFLOW_ERRORS } from "@atelier/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shareLinks } from "../src/db/schema.ts";
import { APP_SETTINGS, appWorkflow, uploadPng } from "./helpers/apps.ts";
import { TestClient } from "./helpers/client.ts";
import { waitForRun } from "./helpers/runs.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

type Share = { id: string; role: string; token: string; path: string; expiresAt: string | null };
type Opened = { workflow: { id: string; updated_at: string; data: { nodes: { id: string }[] } } };

describe("share links", () => {
  let server: TestServer;
  let alice: TestClient;
  let bob: TestClient;
  let stranger: TestClient;
  let workflowId: string;
  beforeAll(async () => {
    server = await startTestServer();
    alice = new TestClient(server.url);
    bob = new TestClient(server.url);
    stranger = new TestClient(server.url);
    await alice.signUp("alice@example.com");
    await bob.signUp("bob@example.com");
    const photo = await uploadPng(alice);
    const created = await alice.json<Opened>("POST", "/api/workflows", {
      name: "Restyle",
      data: appWorkflow(photo),
    });
    workflowId = created.body.workflow.id;
  });
  afterAll(() => server.close());

  const share = async (role: string, expiresAt?: string | null) => {
    const made = await alice.json<{ share: Share }>("POST", `/api/workflows/${workflowId}/shares`, {
      role,
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    });
    expect(made.status).toBe(201);
    return made.body.share;
  };
  const withLink = (token: string) => ({ "x-share-token": token });
  const open = (client: TestClient, token: string) =>
    client.raw("GET", `/api/workflows/${workflowId}`, { headers: withLink(token) });

  it("creates, lists and revokes links; a revoked link is 404 at once", async () => {
    const link = await share("view");
    expect(link).toMatchObject({ role: "view", expiresAt: null, path: `/s/${link.token}` });
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const listed = await alice.json<{ shares: Share[] }>(
      "GET",
      `/api/workflows/${workflowId}/shares`,
    );
    expect(listed.body.shares.map((row) => row.id)).toContain(link.id);

    const opened = await stranger.json("GET", `/api/shares/${link.token}`);
    expect(opened).toMatchObject({
      status: 200,
      body: { role: "view", workflowId, workflowName: "Restyle", appSlug: null },
    });
    expect((await open(stranger, link.token)).status).toBe(200);

    const revoked = await alice.json("DELETE", `/api/workflows/${workflowId}/shares/${link.id}`);
    expect(revoked).toMatchObject({ status: 200, body: { success: true } });
    const gone = await stranger.json("GET", `/api/shares/${link.token}`);
    expect(gone).toMatchObject({ status: 404, body: { error: SHARE_MESSAGES.notFound } });
    const read = await open(stranger, link.token);
    expect(read.status).toBe(404);
    expect(await read.json()).toEqual({ error: WORKFLOW_ERRORS.notFound });
  });

  it("only the owner manages links: anyone else's requests are 404", async () => {
    const link = await share("edit");
    for (const [method, path] of [
      ["GET", `/api/workflows/${workflowId}/shares`],
      ["POST", `/api/workflows/${workflowId}/shares`],
      ["DELETE", `/api/workflows/${workflowId}/shares/${link.id}`],
    ] as const) {
      const answer = await bob.json(method, path, method === "POST" ? { role: "edit" } : undefined);
      expect(answer).toMatchObject({ status: 404, body: { error: WORKFLOW_ERRORS.notFound } });
    }
    // Even through an edit link of this very workflow.
    const viaLink = await bob.raw("GET", `/api/workflows/${workflowId}/shares`, {
      headers: withLink(link.token),
    });
    expect(viaLink.status).toBe(404);
  });

  it("an expired link is 404 everywhere; an expiry in the past is refused", async () => {
    const past = await alice.json("POST", `/api/workflows/${workflowId}/shares`, {
      role: "view",
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect(past).toMatchObject({ status: 400, body: { error: SHARE_MESSAGES.expiryInPast } });
    const soon = await share("view", new Date(Date.now() + 60_000).toISOString());
    expect((await open(stranger, soon.token)).status).toBe(200);
    // The minute passes: the row's expiry moves into the past.
    await server.ctx.database.db
      .update(shareLinks)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(shareLinks.id, soon.id));
    expect((await open(stranger, soon.token)).status).toBe(404);
    expect((await stranger.json("GET", `/api/shares/${soon.token}`)).status).toBe(404);
  });

  it("a view link reads and never writes; an edit link saves for a signed-in person, with the 409 flow", async () => {
    const view = await share("view");
    const edit = await share("edit");
    const opened = (await (await open(stranger, view.token)).json()) as Opened;
    expect(opened.workflow.data.nodes.map((node) => node.id).sort()).toEqual([
      "edit",
      "photo",
      "prompt",
    ]);
    const basedOn = opened.workflow.updated_at;
    const body = JSON.stringify({ name: "Hijacked", data: appWorkflow("x"), basedOn });
    const headers = (token: string) => ({ ...withLink(token), "content-type": "application/json" });
    const viewWrite = await bob.raw("PUT", `/api/workflows/${workflowId}`, {
      body,
      headers: headers(view.token),
    });
    expect(viewWrite.status).toBe(404);

    // An edit link needs an account.
    const signedOut = await stranger.raw("GET", `/api/workflows/${workflowId}`, {
      headers: withLink(edit.token),
    });
    expect(signedOut.status).toBe(401);
    expect(await signedOut.json()).toEqual({ error: SHARE_MESSAGES.signInToEdit });

    const photo = await uploadPng(alice, workflowId);
    const saved = await bob.raw("PUT", `/api/workflows/${workflowId}`, {
      body: JSON.stringify({ name: "Restyle (Bob)", data: appWorkflow(photo), basedOn }),
      headers: headers(edit.token),
    });
    expect(saved.status).toBe(200);
    // The owner sees Bob's save; a second save on the old version is a conflict.
    const mine = await alice.json<Opened & { workflow: { name: string } }>(
      "GET",
      `/api/workflows/${workflowId}`,
    );
    expect(mine.body.workflow.name).toBe("Restyle (Bob)");
    const stale = await bob.raw("PUT", `/api/workflows/${workflowId}`, {
      body: JSON.stringify({ name: "Again", data: appWorkflow(photo), basedOn }),
      headers: headers(edit.token),
    });
    expect(stale.status).toBe(409);
    // The link opens this workflow only: not the owner's list, nor another of hers.
    const other = await alice.json<Opened>("POST", "/api/workflows", {
      name: "Private",
      data: appWorkflow(photo),
    });
    const elsewhere = await bob.raw("GET", `/api/workflows/${other.body.workflow.id}`, {
      headers: withLink(edit.token),
    });
    expect(elsewhere.status).toBe(404);
  });
});

describe("published apps", () => {
  let server: TestServer;
  let alice: TestClient;
  let bob: TestClient;
  let stranger: TestClient;
  let workflowId: string;
  beforeAll(async () => {
    server = await startTestServer({ LOCAL_PROVIDER_STEP_MS: "10" });
    await server.ctx.work({ concurrency: 2 });
    alice = new TestClient(server.url);
    bob = new TestClient(server.url);
    stranger = new TestClient(server.url);
    await alice.signUp("alice@example.com");
    await bob.signUp("bob@example.com");
    const photo = await uploadPng(alice);
    const created = await alice.json<Opened>("POST", "/api/workflows", {
      name: "Restyle",
      data: appWorkflow(photo),
    });
    workflowId = created.body.workflow.id;
  }, 60_000);
  afterAll(() => server.close());

  type AppView = {
    app: {
      slug: string;
      version: number;
      fields: { id: string; label: string; input: Record<string, unknown> }[];
    };
  };
  type AppRun = {
    run: {
      id: string;
      status: string;
      version: number;
      outputs: { label: string; values: string[]; status: string }[];
    };
  };

  it("publishes the saved version, refuses fields the graph cannot serve, and shows a form", async () => {
    const bad = await alice.json("PUT", `/api/workflows/${workflowId}/app`, {
      ...APP_SETTINGS,
      fields: [{ kind: "param", nodeId: "prompt", param: "nope" }],
    });
    expect(bad).toMatchObject({
      status: 400,
      body: { error: APP_MESSAGES.unknownParam("prompt", "nope") },
    });
    const noOutputs = await alice.json("PUT", `/api/workflows/${workflowId}/app`, {
      ...APP_SETTINGS,
      outputs: [],
    });
    expect(noOutputs).toMatchObject({ status: 400, body: { error: APP_MESSAGES.noOutputs } });

    const published = await alice.json<{ app: { slug: string; version: number } }>(
      "PUT",
      `/api/workflows/${workflowId}/app`,
      APP_SETTINGS,
    );
    expect(published.status).toBe(200);
    expect(published.body.app.slug).toMatch(/^restyle-a-photo-[a-z0-9]{8}$/);
    expect(published.body.app.version).toBe(1);

    const form = await stranger.json<AppView>("GET", `/api/apps/${published.body.app.slug}`);
    expect(form.status).toBe(200);
    expect(form.body.app.fields).toEqual([
      {
        id: "prompt/text",
        label: "Style",
        input: { type: "text", multiline: true, default: "make it a watercolour" },
      },
      { id: "photo/file", label: "Photo", input: { type: "media", accept: "image/*" } },
    ]);
    // The form never carries the workflow behind it.
    expect(JSON.stringify(form.body)).not.toContain("flux-kontext");
  });

  it("runs the published version with an upload and a prompt; later edits change nothing until republished", async () => {
    const { body } = await alice.json<{ app: { slug: string } }>(
      "GET",
      `/api/workflows/${workflowId}/app`,
    );
    const slug = body.app.slug;
    const signedOut = await stranger.json("POST", `/api/apps/${slug}/runs`, { values: {} });
    expect(signedOut).toMatchObject({ status: 401, body: { error: SHARE_MESSAGES.signInToRun } });
    const missing = await bob.json("POST", `/api/apps/${slug}/runs`, {
      values: { "prompt/text": "ink" },
    });
    expect(missing).toMatchObject({
      status: 400,
      body: { error: APP_MESSAGES.mediaRequired("Photo") },
    });
    const outside = await bob.json("POST", `/api/apps/${slug}/runs`, {
      values: { "photo/file": "http://127.0.0.1:1/x.png" },
    });
    expect(outside).toMatchObject({ status: 400, body: { error: APP_MESSAGES.badMedia("Photo") } });

    const photo = await uploadPng(bob);
    const started = await bob.json<AppRun>("POST", `/api/apps/${slug}/runs`, {
      values: { "prompt/text": "an ink sketch", "photo/file": photo },
    });
    expect(started.status).toBe(202);
    const done = await waitForRun(bob, started.body.run.id);
    expect(done.status).toBe("completed");
    expect(done.inputs).toEqual({});
    const result = await bob.json<AppRun>("GET", `/api/apps/${slug}/runs/${done.id}`);
    expect(result.body.run).toMatchObject({ status: "completed", version: 1 });
    expect(result.body.run.outputs).toHaveLength(1);
    expect(result.body.run.outputs[0]?.values[0]).toMatch(/\/api\/media\/file\//);

    // Alice edits the workflow: the app still runs version 1 until she republishes.
    const opened = await alice.json<Opened>("GET", `/api/workflows/${workflowId}`);
    const edited = appWorkflow(photo, "a new default");
    edited.nodes = edited.nodes.filter((node) => node.id !== "prompt");
    edited.edges = edited.edges.filter((edge) => edge.source !== "prompt");
    // The model keeps a prompt of its own, so version 2 still runs.
    const model = edited.nodes.find((node) => node.id === "edit") as {
      data: Record<string, unknown>;
    };
    model.data.inputValues = { numImages: { value: 1 }, prompt: { value: "a new default" } };
    const saved = await alice.json("PUT", `/api/workflows/${workflowId}`, {
      name: "Restyle",
      data: edited,
      basedOn: opened.body.workflow.updated_at,
    });
    expect(saved.status).toBe(200);
    const form = await bob.json<AppView>("GET", `/api/apps/${slug}`);
    expect(form.body.app.version).toBe(1);
    expect(form.body.app.fields.map((field) => field.id)).toEqual(["prompt/text", "photo/file"]);
    const republish = await alice.json("PUT", `/api/workflows/${workflowId}/app`, APP_SETTINGS);
    expect(republish).toMatchObject({
      status: 400,
      body: { error: APP_MESSAGES.unknownNode("prompt") },
    });
    const again = await alice.json<{ app: { slug: string; version: number } }>(
      "PUT",
      `/api/workflows/${workflowId}/app`,
      { ...APP_SETTINGS, fields: [APP_SETTINGS.fields[1]] },
    );
    expect(again.body.app).toMatchObject({ slug, version: 2 });
    expect(
      (await bob.json<AppView>("GET", `/api/apps/${slug}`)).body.app.fields.map((f) => f.id),
    ).toEqual(["photo/file"]);
  });

  it("keeps each app's history: the owner sees every run, a runner their own", async () => {
    const { body } = await alice.json<{ app: { slug: string } }>(
      "GET",
      `/api/workflows/${workflowId}/app`,
    );
    const slug = body.app.slug;
    const photo = await uploadPng(alice);
    const own = await alice.json<AppRun>("POST", `/api/apps/${slug}/runs`, {
      values: { "photo/file": photo },
    });
    expect(own.status).toBe(202);
    const owners = await alice.json<{ runs: { id: string; runBy: string | null }[] }>(
      "GET",
      `/api/apps/${slug}/runs`,
    );
    expect(owners.body.runs).toHaveLength(2);
    expect(owners.body.runs.filter((run) => run.runBy !== null)).toHaveLength(1);
    const bobs = await bob.json<{ runs: { id: string }[] }>("GET", `/api/apps/${slug}/runs`);
    expect(bobs.body.runs).toHaveLength(1);
    expect((await bob.json("GET", `/api/apps/${slug}/runs/${own.body.run.id}`)).status).toBe(404);
  });

  it("a link-only app opens only through an active run link", async () => {
    const published = await alice.json<{ app: { slug: string } }>(
      "PUT",
      `/api/workflows/${workflowId}/app`,
      {
        ...APP_SETTINGS,
        fields: [APP_SETTINGS.fields[1]],
        access: "link",
      },
    );
    const slug = published.body.app.slug;
    expect(await bob.json("GET", `/api/apps/${slug}`)).toMatchObject({
      status: 404,
      body: { error: APP_MESSAGES.notFound },
    });
    const made = await alice.json<{ share: Share }>("POST", `/api/workflows/${workflowId}/shares`, {
      role: "run",
    });
    const token = made.body.share.token;
    expect((await bob.json("GET", `/api/shares/${token}`)).body).toMatchObject({
      role: "run",
      appSlug: slug,
    });
    const viaLink = await bob.raw("GET", `/api/apps/${slug}`, {
      headers: { "x-share-token": token },
    });
    expect(viaLink.status).toBe(200);
    // A run link does not open the canvas.
    const canvas = await bob.raw("GET", `/api/workflows/${workflowId}`, {
      headers: { "x-share-token": token },
    });
    expect(canvas.status).toBe(404);
    await alice.json("DELETE", `/api/workflows/${workflowId}/shares/${made.body.share.id}`);
    const revoked = await bob.raw("GET", `/api/apps/${slug}`, {
      headers: { "x-share-token": token },
    });
    expect(revoked.status).toBe(404);
  });
});
