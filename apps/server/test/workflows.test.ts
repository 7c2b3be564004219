import type { SavedWorkflow } from "@atelier/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workflowChunks } from "../src/db/schema.ts";
import { TestClient } from "./helpers/client.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

interface Row {
  id: string;
  name: string;
  updated_at: string;
  data: SavedWorkflow;
  is_chunked: boolean;
  chunk_count: number;
  data_size_bytes: number;
  fork_count: number;
  forked_from: string | null;
}

const MB = 1024 * 1024;

describe("workflows API", () => {
  let server: TestServer;
  let alice: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    alice = new TestClient(server.url);
    await alice.signUp("alice@example.com");
  });
  afterAll(() => server.close());

  const create = (name: string, data: SavedWorkflow = makeWorkflow(name)) =>
    alice.json<{ workflow: Row; error: string }>("POST", "/api/workflows", { name, data });

  it("refuses to save while signed out with SPEC's message", async () => {
    const anonymous = new TestClient(server.url);
    const result = await anonymous.json("POST", "/api/workflows", {
      name: "x",
      data: makeWorkflow(),
    });
    expect(result.status).toBe(401);
    expect(result.body).toEqual({ error: "User must be authenticated to save workflows" });
  });

  it("creates, reads back identical data, and lists newest updated first", async () => {
    const data = makeWorkflow("First", 3);
    const first = await create("First", data);
    expect(first.status).toBe(201);
    expect(first.body.workflow).toMatchObject({
      name: "First",
      is_chunked: false,
      chunk_count: 0,
      fork_count: 0,
    });
    const read = await alice.json<{ workflow: Row }>(
      "GET",
      `/api/workflows/${first.body.workflow.id}`,
    );
    expect(read.body.workflow.data).toEqual({
      ...data,
      metadata: { ...data.metadata, id: first.body.workflow.id },
    });
    const second = await create("Second");
    const list = await alice.json<{ workflows: Row[] }>("GET", "/api/workflows");
    expect(list.body.workflows[0]?.id).toBe(second.body.workflow.id);
    expect(list.body.workflows[0]).not.toHaveProperty("data");
  });

  it("limits the list to 100 workflows", async () => {
    const bob = new TestClient(server.url);
    await bob.signUp("bob-many@example.com");
    const data = makeWorkflow();
    for (let index = 0; index < 102; index++)
      await bob.json("POST", "/api/workflows", { name: `W${index}`, data });
    const list = await bob.json<{ workflows: Row[] }>("GET", "/api/workflows");
    expect(list.body.workflows).toHaveLength(100);
    expect(list.body.workflows[0]?.name).toBe("W101");
  });

  it("stores a workflow over 5 MB as chunks of at most 2 MB and loads it back identical", async () => {
    const data = makeWorkflow("Big", 120, 50_000);
    expect(JSON.stringify(data).length).toBeGreaterThan(5 * MB);
    const created = await create("Big", data);
    expect(created.status).toBe(201);
    expect(created.body.workflow.is_chunked).toBe(true);
    expect(created.body.workflow.chunk_count).toBeGreaterThan(3);
    expect(created.body.workflow.data_size_bytes).toBeGreaterThan(5 * MB);
    const chunks = await server.ctx.database.db
      .select()
      .from(workflowChunks)
      .where(eq(workflowChunks.workflowId, created.body.workflow.id));
    expect(chunks.length).toBe(created.body.workflow.chunk_count);
    for (const chunk of chunks) expect(chunk.sizeBytes).toBeLessThanOrEqual(2 * MB);
    const read = await alice.json<{ workflow: Row }>(
      "GET",
      `/api/workflows/${created.body.workflow.id}`,
    );
    expect(read.body.workflow.data).toEqual({
      ...data,
      metadata: { ...data.metadata, id: created.body.workflow.id },
    });
  });

  it("refuses a workflow over 10 MB with SPEC's message", async () => {
    const data = makeWorkflow("Huge", 220, 50_000);
    const result = await create("Huge", data);
    expect(result.status).toBe(413);
    expect(result.body.error).toMatch(
      /^Workflow data is still \d+\.\d\d MB after processing\. This is too large for the database\. Please try clearing some outputs manually\.$/,
    );
  });

  it("accepts exactly one of two saves made from the same version; the other gets 409", async () => {
    const created = (await create("Contested")).body.workflow;
    const base = created.updated_at;
    const save = (label: string) =>
      alice.json<{ workflow: Row; error: string; updated_at: string }>(
        "PUT",
        `/api/workflows/${created.id}`,
        {
          name: label,
          data: makeWorkflow(label),
          basedOn: base,
        },
      );
    const results = await Promise.all([save("Tab A"), save("Tab B")]);
    const statuses = results.map((result) => result.status).sort();
    expect(statuses).toEqual([200, 409]);
    const winner = results.find((result) => result.status === 200);
    const loser = results.find((result) => result.status === 409);
    expect(loser?.body.updated_at).toBe(winner?.body.workflow.updated_at);
    const current = await alice.json<{ workflow: Row }>("GET", `/api/workflows/${created.id}`);
    expect(current.body.workflow.name).toBe(winner?.body.workflow.name);
    // Saving again from the current version works.
    const again = await alice.json("PUT", `/api/workflows/${created.id}`, {
      name: "Merged",
      data: makeWorkflow("Merged"),
      basedOn: current.body.workflow.updated_at,
    });
    expect(again.status).toBe(200);
  });

  it("turns a small workflow into chunks and back as it grows and shrinks", async () => {
    const created = (await create("Grows")).body.workflow;
    const big = await alice.json<{ workflow: Row }>("PUT", `/api/workflows/${created.id}`, {
      name: "Grows",
      data: makeWorkflow("Grows", 120, 50_000),
      basedOn: created.updated_at,
    });
    expect(big.body.workflow.is_chunked).toBe(true);
    const small = await alice.json<{ workflow: Row }>("PUT", `/api/workflows/${created.id}`, {
      name: "Grows",
      data: makeWorkflow("Grows"),
      basedOn: big.body.workflow.updated_at,
    });
    expect(small.body.workflow).toMatchObject({ is_chunked: false, chunk_count: 0 });
    const chunks = await server.ctx.database.db
      .select()
      .from(workflowChunks)
      .where(eq(workflowChunks.workflowId, created.id));
    expect(chunks).toEqual([]);
  });

  it("forks: a new workflow pointing back, and the source's fork count goes up", async () => {
    const source = (await create("Source", makeWorkflow("Source", 4))).body.workflow;
    const fork = await alice.json<{ workflowId: string }>("POST", "/api/workflows/fork", {
      sourceWorkflowId: source.id,
      options: { name: "My fork" },
    });
    expect(fork.status).toBe(201);
    const forked = (
      await alice.json<{ workflow: Row }>("GET", `/api/workflows/${fork.body.workflowId}`)
    ).body.workflow;
    expect(forked).toMatchObject({ name: "My fork", forked_from: source.id });
    expect(forked.data.nodes).toHaveLength(4);
    expect(forked.data.metadata.forkedFrom).toBe(source.id);
    expect(
      (await alice.json<{ workflow: Row }>("GET", `/api/workflows/${source.id}`)).body.workflow
        .fork_count,
    ).toBe(1);
    const missing = await alice.json("POST", "/api/workflows/fork", { sourceWorkflowId: "nope" });
    expect(missing.status).toBe(404);
  });

  it("deletes a workflow and its chunks", async () => {
    const created = (await create("Doomed", makeWorkflow("Doomed", 120, 50_000))).body.workflow;
    expect((await alice.json("DELETE", `/api/workflows/${created.id}`)).status).toBe(200);
    expect((await alice.json("GET", `/api/workflows/${created.id}`)).status).toBe(404);
    const chunks = await server.ctx.database.db
      .select()
      .from(workflowChunks)
      .where(eq(workflowChunks.workflowId, created.id));
    expect(chunks).toEqual([]);
  });

  /** What a script might send: nodes without selected and dragging (SPEC §3 saves them as false). */
  const withoutSelection = ({ nodes, ...rest }: SavedWorkflow) => ({
    ...rest,
    nodes: nodes.map(({ selected: _selected, dragging: _dragging, ...node }) => node),
  });

  it("accepts a workflow whose nodes omit selected and dragging, on every save path", async () => {
    const data = makeWorkflow("Scripted", 3);
    const { nodes, edges, ...head } = withoutSelection(data);
    const id = (await create("Scripted", data)).body.workflow.id;
    const read = async () =>
      (await alice.json<{ workflow: Row }>("GET", `/api/workflows/${id}`)).body.workflow;
    const asSave = async (fields: object) => ({
      name: "Scripted",
      basedOn: (await read()).updated_at,
      ...fields,
    });
    // Each write path on its own (soft: a refusal on one still tries the next).
    const writes: [string, string, () => Promise<object>][] = [
      [
        "POST",
        "/api/workflows",
        async () => ({ name: "Scripted", data: { ...head, nodes, edges } }),
      ],
      ["PUT", `/api/workflows/${id}`, () => asSave({ data: { ...head, nodes, edges } })],
      ["PATCH", `/api/workflows/${id}`, () => asSave({ data: head, nodes, removed: [] })],
      ["PUT", `/api/workflows/${id}/saves/scripted-1/batches/0`, async () => ({ nodes })],
      [
        "POST",
        `/api/workflows/${id}/saves/scripted-1/commit`,
        () => asSave({ batches: 1, data: { ...head, nodes: [], edges } }),
      ],
    ];
    for (const [method, path, body] of writes) {
      const written = await alice.json<{ error: string }>(method, path, await body());
      expect.soft(written.status, `${method} ${path}: ${written.body.error}`).toBeLessThan(300);
    }
    // Stored as SPEC §3 saves them: selected and dragging written as false.
    expect((await read()).data.nodes).toEqual(data.nodes);
  });

  it("accepts a workflow with only what SPEC §5 requires, filling in what SPEC §3 describes", async () => {
    const before = Date.now();
    const created = await alice.json<{ workflow: Row; error: string }>("POST", "/api/workflows", {
      name: "Bare",
      data: {
        version: "1.0.0",
        nodes: [
          {
            id: "a",
            type: "text",
            position: { x: 0, y: 0 },
            data: { ports: [{ id: "text" }], inputValues: { text: {} } },
          },
        ],
        edges: [],
      },
    });
    expect(created.status, created.body.error).toBe(201);
    const read = await alice.json<{ workflow: Row }>(
      "GET",
      `/api/workflows/${created.body.workflow.id}`,
    );
    const saved = read.body.workflow.data;
    expect(saved.timestamp).toBeGreaterThanOrEqual(before);
    expect(saved.metadata).toEqual({ name: "Untitled workflow", id: created.body.workflow.id });
    expect(saved.nodes).toEqual([
      {
        id: "a",
        type: "text",
        position: { x: 0, y: 0 },
        data: { ports: [{ id: "text", type: "any" }], inputValues: { text: { value: null } } },
        selected: false,
        dragging: false,
      },
    ]);
  });

  it("refuses malformed workflow data", async () => {
    const result = await alice.json<{ error: string }>("POST", "/api/workflows", {
      name: "Bad",
      data: { version: "1.0.0", nodes: "x" },
    });
    expect(result.status).toBe(400);
    expect(result.body.error).toBe(
      "Invalid workflow data: nodes must be an array; edges must be an array",
    );
    // Past SPEC §5's check, the saved form's own rules: a node is never saved as selected.
    const [node] = makeWorkflow().nodes;
    const selected = await alice.json<{ error: string }>("POST", "/api/workflows", {
      name: "Bad",
      data: { version: "1.0.0", nodes: [{ ...node, selected: true }], edges: [] },
    });
    expect(selected.status).toBe(400);
    expect(selected.body.error).toMatch(/^Invalid request: data\.nodes\.0\.selected: /);
  });

  it("streams an 'updated' event with the new updated_at whenever the workflow changes", async () => {
    const created = (await create("Watched")).body.workflow;
    const response = await alice.raw("GET", `/api/workflows/${created.id}/events`);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const events: string[] = [];
    const nextEvent = async (name: string) => {
      for (;;) {
        const found = events.find((event) => event.startsWith(`event: ${name}`));
        if (found) {
          events.splice(events.indexOf(found), 1);
          return JSON.parse(found.split("\ndata: ")[1] ?? "{}") as {
            id: string;
            updated_at: string;
          };
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("stream ended");
        events.push(
          ...decoder
            .decode(value, { stream: true })
            .split("\n\n")
            .filter((chunk) => chunk.startsWith("event:")),
        );
      }
    };
    expect((await nextEvent("ready")).updated_at).toBe(created.updated_at);
    const saved = await alice.json<{ workflow: Row }>("PUT", `/api/workflows/${created.id}`, {
      name: "Watched 2",
      data: makeWorkflow(),
      basedOn: created.updated_at,
    });
    expect(await nextEvent("updated")).toEqual({
      id: created.id,
      updated_at: saved.body.workflow.updated_at,
    });
    await reader.cancel();
  });
});
