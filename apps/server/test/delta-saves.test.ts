import { DELTA_SAVE_LIMITS, type SavedNode, type SavedWorkflow } from "@atelier/core";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workflowChunks } from "../src/db/schema.ts";
import { TestClient } from "./helpers/client.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

interface Row {
  id: string;
  updated_at: string;
  data: SavedWorkflow | null;
  is_chunked: boolean;
  chunk_count: number;
  data_size_bytes: number;
}
interface Saved {
  workflow: Row;
  chunksWritten: number;
  error: string;
  updated_at: string;
}

/** 120 nodes of 45 KB: about 5.4 MB, stored in chunks of 10 nodes. */
const big = (name: string) => makeWorkflow(name, 120, 45_000);
const headOf = ({ nodes: _nodes, edges: _edges, ...head }: SavedWorkflow) => head;
const withPrompt = (node: SavedNode, text: string): SavedNode => ({
  ...node,
  data: { ...node.data, inputValues: { prompt: { value: text } } },
});

describe("delta saves (PATCH /api/workflows/:id)", () => {
  let server: TestServer;
  let alice: TestClient;
  let bob: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    alice = new TestClient(server.url);
    bob = new TestClient(server.url);
    await alice.signUp("alice-delta@example.com");
    await bob.signUp("bob-delta@example.com");
  });
  afterAll(() => server.close());

  const create = async (data: SavedWorkflow) =>
    (await alice.json<Saved>("POST", "/api/workflows", { name: data.metadata.name, data })).body
      .workflow;
  const read = async (id: string) =>
    (await alice.json<Saved>("GET", `/api/workflows/${id}`)).body.workflow;
  const patch = (client: TestClient, row: Row, data: SavedWorkflow, delta: object) =>
    client.json<Saved>("PATCH", `/api/workflows/${row.id}`, {
      name: data.metadata.name,
      basedOn: row.updated_at,
      data: headOf(data),
      nodes: [],
      removed: [],
      ...delta,
    });
  const chunkHashes = async (id: string) =>
    (
      await server.ctx.database.db
        .select({ index: workflowChunks.chunkIndex, hash: workflowChunks.contentHash })
        .from(workflowChunks)
        .where(eq(workflowChunks.workflowId, id))
        .orderBy(asc(workflowChunks.chunkIndex))
    ).map((chunk) => `${chunk.index}:${chunk.hash}`);
  /** What a full save of `data` stores, read back, for comparison. */
  const fullSaveOf = async (data: SavedWorkflow) => {
    const row = await create({ ...data, nodes: [], edges: [] });
    await alice.json("PUT", `/api/workflows/${row.id}`, {
      name: data.metadata.name,
      data,
      basedOn: row.updated_at,
    });
    return read(row.id);
  };

  it("rewrites only the chunk of an edited prompt in a 5 MB workflow, and reads back identical", async () => {
    const data = big("Delta");
    const row = await create(data);
    expect(row.is_chunked).toBe(true);
    const before = await chunkHashes(row.id);

    const edited = withPrompt(data.nodes[57] as SavedNode, "a lighthouse, edited");
    const next: SavedWorkflow = {
      ...data,
      timestamp: data.timestamp + 1,
      nodes: data.nodes.map((node) => (node.id === edited.id ? edited : node)),
    };
    const saved = await patch(alice, row, next, { nodes: [edited] });
    expect(saved.status).toBe(200);
    expect(saved.body.chunksWritten).toBe(1);
    expect(saved.body.workflow.data).toBeNull();
    const after = await chunkHashes(row.id);
    expect(after).toHaveLength(before.length);
    expect(after.filter((entry) => !before.includes(entry))).toHaveLength(1);

    const loaded = await read(row.id);
    expect(loaded.updated_at).toBe(saved.body.workflow.updated_at);
    expect(loaded.data).toEqual({ ...next, metadata: { ...next.metadata, id: row.id } });
    const full = await fullSaveOf(next);
    expect(loaded.data?.nodes).toEqual(full.data?.nodes);
    expect(loaded).toMatchObject({
      is_chunked: full.is_chunked,
      chunk_count: full.chunk_count,
      data_size_bytes: full.data_size_bytes,
    });
  });

  it("adds, removes and re-wires nodes, matching a full save of the result", async () => {
    const data = makeWorkflow("Reshaped", 130, 45_000);
    const row = await create(data);
    const before = await chunkHashes(row.id);
    const added = { ...(data.nodes[3] as SavedNode), id: "added-1" };
    // One node of the first chunk, and every node of the second.
    const removed = ["n5", ...Array.from({ length: 10 }, (_, index) => `n${10 + index}`)];
    const edges = [
      ...data.edges.filter(
        (edge) => !removed.includes(edge.target) && !removed.includes(edge.source),
      ),
      {
        id: "e-added",
        source: "n0",
        target: "added-1",
        sourceHandle: "text",
        targetHandle: "prompt",
      },
    ];
    const next: SavedWorkflow = {
      ...data,
      nodes: [...data.nodes.filter((node) => !removed.includes(node.id)), added],
      edges,
    };
    const saved = await patch(alice, row, next, { nodes: [added], removed, edges });
    expect(saved.status).toBe(200);
    // The first chunk, a new chunk for the added node (the last one is full), the edges.
    expect(saved.body.chunksWritten).toBe(3);
    // The emptied second chunk is gone and the new one takes its place in the count.
    expect(await chunkHashes(row.id)).toHaveLength(before.length);
    const loaded = await read(row.id);
    expect(loaded.is_chunked).toBe(true);
    expect(loaded.data).toEqual({ ...next, metadata: { ...next.metadata, id: row.id } });
    const full = await fullSaveOf(next);
    expect(loaded.data_size_bytes).toBe(full.data_size_bytes);

    // A later edit on top of the reshaped layout still round-trips.
    const edited = withPrompt(added, "second edit");
    const again = await patch(alice, saved.body.workflow, next, { nodes: [edited] });
    expect(again.status).toBe(200);
    expect(again.body.chunksWritten).toBe(1);
    expect((await read(row.id)).data?.nodes.at(-1)).toEqual(edited);
  });

  it("applies to a small workflow stored whole, and turns it into chunks as it grows", async () => {
    const data = makeWorkflow("Small", 3);
    const row = await create(data);
    const grown = big("Small").nodes.slice(3);
    const next = { ...data, nodes: [...data.nodes, ...grown] };
    const saved = await patch(alice, row, next, { nodes: grown });
    expect(saved.status).toBe(200);
    const loaded = await read(row.id);
    expect(loaded.is_chunked).toBe(true);
    expect(loaded.data?.nodes).toEqual(next.nodes);
  });

  it("answers a stale base with 409 and the current version, changing nothing", async () => {
    const data = big("Stale");
    const row = await create(data);
    const first = await patch(alice, row, data, {
      nodes: [withPrompt(data.nodes[0] as SavedNode, "a")],
    });
    expect(first.status).toBe(200);
    const stale = await patch(alice, row, data, {
      nodes: [withPrompt(data.nodes[0] as SavedNode, "b")],
    });
    expect(stale.status).toBe(409);
    expect(stale.body.updated_at).toBe(first.body.workflow.updated_at);
    expect((await read(row.id)).data?.nodes[0]?.data.inputValues?.prompt?.value).toBe("a");
  });

  it("keeps other users out: another user's workflow is 404", async () => {
    const data = makeWorkflow("Private", 2);
    const row = await create(data);
    const foreign = await patch(bob, row, data, { nodes: [data.nodes[0]] });
    expect(foreign.status).toBe(404);
    expect((await read(row.id)).updated_at).toBe(row.updated_at);
  });

  it("refuses deltas that are ambiguous, broken or over the limits", async () => {
    const data = makeWorkflow("Limits", 3);
    const row = await create(data);
    const node = data.nodes[1] as SavedNode;
    const twice = await patch(alice, row, data, { nodes: [node], removed: [node.id] });
    expect(twice.status).toBe(400);
    const dangling = await patch(alice, row, data, { removed: ["n0"] });
    expect(dangling.status).toBe(400);
    expect(dangling.body.error).toMatch(
      /^Invalid workflow data: Edge e0 references missing node n0/,
    );
    const unknownField = await patch(alice, row, data, { extra: true });
    expect(unknownField.status).toBe(400);
    const tooMany = await patch(alice, row, data, {
      removed: Array.from({ length: DELTA_SAVE_LIMITS.removed + 1 }, (_, index) => `x${index}`),
    });
    expect(tooMany.status).toBe(400);
    const tooBig = await patch(alice, row, data, {
      nodes: [withPrompt(node, "x".repeat(DELTA_SAVE_LIMITS.bodyBytes))],
    });
    expect(tooBig.status).toBe(413);
    expect((await read(row.id)).updated_at).toBe(row.updated_at);
  });

  it("refuses a delta that takes the workflow over 10 MB", async () => {
    const data = big("Huge");
    const row = await create(data);
    const more = makeWorkflow("Huge", 125, 45_000).nodes.map((node) => ({
      ...node,
      id: `more-${node.id}`,
    }));
    const result = await patch(alice, row, data, { nodes: more });
    expect(result.status).toBe(413);
    expect(result.body.error).toMatch(/^Workflow data is still \d+\.\d\d MB after processing/);
  });
});
