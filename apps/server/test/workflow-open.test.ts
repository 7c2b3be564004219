import {
  assembleChunksText,
  DATA_LOST_LABEL,
  type SavedNode,
  type SavedWorkflow,
} from "@atelier/core";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkflowJsonCache } from "../src/commands/workflow-storage/json-reader.ts";
import { readChunkRows } from "../src/commands/workflow-storage/stored-form.ts";
import { getReadableWorkflow } from "../src/commands/workflow-storage/workflow-rows.ts";
import { workflowChunks, workflows } from "../src/db/schema.ts";
import { presentWorkflow } from "../src/http/presenters.ts";
import { TestClient } from "./helpers/client.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

interface Row {
  id: string;
  user_id: string;
  updated_at: string;
  folder_id: string | null;
  fork_count: number;
  is_chunked: boolean;
  data: SavedWorkflow;
}

/** 120 nodes of 50 KB: over 5 MB, so stored in chunks. */
const big = (name: string) => makeWorkflow(name, 120, 50_000);

// GET /api/workflows/:id splices stored JSON into its answer; it must say exactly what
// parsing everything and stringifying it again (the old answer) said.
describe("opening a workflow (GET /api/workflows/:id)", () => {
  let server: TestServer;
  let alice: TestClient;
  let bob: TestClient;
  let bobId: string;
  beforeAll(async () => {
    server = await startTestServer();
    alice = new TestClient(server.url);
    bob = new TestClient(server.url);
    await alice.signUp("alice-open@example.com");
    bobId = (await bob.signUp("bob-open@example.com")).user.id;
  });
  afterAll(() => server.close());

  const db = () => server.ctx.database.db;
  const create = async (data: SavedWorkflow, extra: object = {}) =>
    (
      await alice.json<{ workflow: Row }>("POST", "/api/workflows", {
        name: data.metadata.name,
        data,
        ...extra,
      })
    ).body.workflow;

  /** The answer as the route built it before: parse everything, stringify everything. */
  const oldAnswer = async (viewerId: string, id: string) => {
    const { row, data } = await getReadableWorkflow(db(), viewerId, id);
    return JSON.stringify({ workflow: presentWorkflow(row, data, viewerId) });
  };

  /** True when the chunks are spliced as text (not assembled and stringified). */
  const spliced = async (id: string) => {
    const [row] = await db().select().from(workflows).where(eq(workflows.id, id));
    return row ? assembleChunksText(await readChunkRows(db(), row)) !== null : false;
  };

  /** Opens `id` as `client` and checks the answer against the old one, byte for byte. */
  const expectSameAsBefore = async (client: TestClient, viewerId: string, id: string) => {
    const response = await client.raw("GET", `/api/workflows/${id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const text = await response.text();
    const old = await oldAnswer(viewerId, id);
    expect(JSON.parse(text)).toEqual(JSON.parse(old));
    expect(text).toBe(old);
    return (JSON.parse(text) as { workflow: Row }).workflow;
  };

  it("answers a workflow stored whole as before", async () => {
    const row = await create(makeWorkflow("Whole", 5));
    expect(row.is_chunked).toBe(false);
    await expectSameAsBefore(alice, row.user_id, row.id);
  });

  it("answers a chunked workflow as before, and again from the cache", async () => {
    const data = big("Chunked");
    const row = await create(data);
    expect(row.is_chunked).toBe(true);
    expect(await spliced(row.id)).toBe(true);
    const read = await expectSameAsBefore(alice, row.user_id, row.id);
    expect(read.data).toEqual({ ...data, metadata: { ...data.metadata, id: row.id } });
    await expectSameAsBefore(alice, row.user_id, row.id);
  });

  it("answers nodes split into parts as before", async () => {
    const row = await create(makeWorkflow("Split", 3, 2_500_000));
    const parts = await db()
      .select({ data: workflowChunks.data })
      .from(workflowChunks)
      .where(eq(workflowChunks.workflowId, row.id));
    expect(parts.some((chunk) => chunk.data.startsWith('{"part"'))).toBe(true);
    expect(await spliced(row.id)).toBe(true);
    await expectSameAsBefore(alice, row.user_id, row.id);
  });

  it("answers a row in the older layout (metadata chunk at index 0) as before", async () => {
    for (const withIds of [true, false]) {
      const row = await create(big(`Legacy ${withIds}`));
      const [stored] = await db().select().from(workflows).where(eq(workflows.id, row.id));
      await db()
        .insert(workflowChunks)
        .values({
          workflowId: row.id,
          chunkIndex: 0,
          chunkType: "metadata",
          data: stored?.chunkHead ?? "",
          sizeBytes: stored?.chunkHead?.length ?? 0,
        });
      await db().update(workflows).set({ chunkHead: null }).where(eq(workflows.id, row.id));
      if (!withIds)
        await db()
          .update(workflowChunks)
          .set({ nodeIds: null })
          .where(eq(workflowChunks.workflowId, row.id));
      // Without node ids (as such rows were written) the chunks are assembled instead.
      expect(await spliced(row.id)).toBe(withIds);
      const read = await expectSameAsBefore(alice, row.user_id, row.id);
      expect(read.data.nodes).toHaveLength(120);
    }
  });

  it("answers a workflow that lost a chunk as before, with the data-lost placeholder", async () => {
    const row = await create(big("Lossy"));
    await db()
      .delete(workflowChunks)
      .where(and(eq(workflowChunks.workflowId, row.id), eq(workflowChunks.chunkIndex, 2)));
    expect(await spliced(row.id)).toBe(false);
    const read = await expectSameAsBefore(alice, row.user_id, row.id);
    expect(read.data.nodes.map((node: SavedNode) => node.data.label)).toContain(DATA_LOST_LABEL);
  });

  it("shows a public workflow, chunked or not, to others without the owner's folder", async () => {
    const folder = (
      await alice.json<{ folder: { id: string } }>("POST", "/api/folders", { name: "Shown" })
    ).body.folder;
    for (const data of [makeWorkflow("Public", 4), big("Public big")]) {
      const row = await create(data, { isPublic: true, folderId: folder.id });
      expect((await expectSameAsBefore(alice, row.user_id, row.id)).folder_id).toBe(folder.id);
      expect((await expectSameAsBefore(bob, bobId, row.id)).folder_id).toBeNull();
    }
  });

  it("answers 404 for another user's private workflow, chunked or not, as before", async () => {
    for (const data of [makeWorkflow("Private", 2), big("Private big")]) {
      const row = await create(data);
      await expectSameAsBefore(alice, row.user_id, row.id);
      const result = await bob.json("GET", `/api/workflows/${row.id}`);
      expect(result.status).toBe(404);
      expect(result.body).toEqual({ error: "Workflow not found" });
      await expect(getReadableWorkflow(db(), bobId, row.id)).rejects.toThrow();
    }
  });

  it("answers forks as before; the source's fork count is current, its data unchanged", async () => {
    const source = await create(big("Forked"), { isPublic: true });
    await expectSameAsBefore(alice, source.user_id, source.id);
    const fork = await bob.json<{ workflowId: string }>("POST", "/api/workflows/fork", {
      sourceWorkflowId: source.id,
    });
    expect(fork.status).toBe(201);
    const forked = await expectSameAsBefore(bob, bobId, fork.body.workflowId);
    expect(forked.data.metadata.forkedFrom).toBe(source.id);
    expect(forked.data.nodes).toHaveLength(120);
    expect((await expectSameAsBefore(alice, source.user_id, source.id)).fork_count).toBe(1);
  });

  it("answers the new version after full and delta saves (no stale cached data)", async () => {
    const data = big("Saved");
    const row = await create(data);
    await expectSameAsBefore(alice, row.user_id, row.id);
    const changed = { ...data, nodes: data.nodes.slice(0, 110), edges: data.edges.slice(0, 109) };
    const put = await alice.json<{ workflow: Row }>("PUT", `/api/workflows/${row.id}`, {
      name: "Saved",
      data: changed,
      basedOn: row.updated_at,
    });
    expect(put.status).toBe(200);
    expect((await expectSameAsBefore(alice, row.user_id, row.id)).data.nodes).toHaveLength(110);
    const { nodes: _nodes, edges: _edges, ...head } = changed;
    const node = changed.nodes[5] as SavedNode;
    const edited = { ...node, data: { ...node.data, label: "Edited" } };
    const patch = await alice.json<{ workflow: Row }>("PATCH", `/api/workflows/${row.id}`, {
      name: "Saved",
      basedOn: put.body.workflow.updated_at,
      data: head,
      nodes: [edited],
      removed: [],
    });
    expect(patch.status).toBe(200);
    expect(await spliced(row.id)).toBe(true);
    const read = await expectSameAsBefore(alice, row.user_id, row.id);
    expect(read.data.nodes[5]?.data.label).toBe("Edited");
  });
});

describe("WorkflowJsonCache", () => {
  const row = (id: string, at: number, chunkHead: string | null = "head") => ({
    id,
    data: null,
    isChunked: true,
    chunkHead,
    updatedAt: new Date(at),
    resultsVersion: 0,
  });

  it("keeps one version a workflow and answers only for that exact version", () => {
    const cache = new WorkflowJsonCache(100);
    cache.set(row("a", 1), Buffer.from("one"));
    expect(cache.get(row("a", 1))?.toString()).toBe("one");
    expect(cache.get(row("a", 2))).toBeNull();
    expect(cache.get(row("a", 1, "other head"))).toBeNull();
    cache.set(row("a", 2), Buffer.from("two"));
    expect(cache.get(row("a", 1))).toBeNull();
    expect(cache.bytes).toBe(3);
  });

  it("stays within its budget, dropping the least recently opened first", () => {
    const cache = new WorkflowJsonCache(100);
    cache.set(row("a", 1), Buffer.alloc(40));
    cache.set(row("b", 1), Buffer.alloc(40));
    expect(cache.get(row("a", 1))).not.toBeNull();
    cache.set(row("c", 1), Buffer.alloc(40));
    expect(cache.get(row("b", 1))).toBeNull();
    expect(cache.get(row("a", 1))).not.toBeNull();
    expect(cache.bytes).toBe(80);
    cache.set(row("d", 1), Buffer.alloc(51));
    expect(cache.get(row("d", 1))).toBeNull();
    expect(cache.bytes).toBe(80);
  });
});
