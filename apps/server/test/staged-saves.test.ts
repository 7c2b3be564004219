import type { SavedWorkflow } from "@atelier/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./helpers/client.ts";
import { pngBytes, uploadForm } from "./helpers/files.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

interface Row {
  id: string;
  updated_at: string;
  data: SavedWorkflow;
  is_chunked: boolean;
}

// Batches wait in memory in the all-in-one server, in the store in web processes.
describe.each([
  ["in memory", "256"],
  ["in the store", "0"],
])("batch saving (SPEC §9: over 2 MB, node batches of 20), staged %s", (_where, memoryMb) => {
  let server: TestServer;
  let alice: TestClient;
  let bob: TestClient;
  beforeAll(async () => {
    server = await startTestServer({ SAVE_STAGING_MEMORY_MB: memoryMb });
    alice = new TestClient(server.url);
    bob = new TestClient(server.url);
    await alice.signUp(`alice-batches-${memoryMb}@example.com`);
    await bob.signUp(`bob-batches-${memoryMb}@example.com`);
  });
  afterAll(() => server.close());

  const createEmpty = async (client: TestClient) => {
    const created = await client.json<{ workflow: Row }>("POST", "/api/workflows", {
      name: "Batched",
      data: makeWorkflow("Batched", 1),
    });
    return created.body.workflow;
  };

  const batchesOf = <T>(items: T[], size: number) =>
    Array.from({ length: Math.ceil(items.length / size) }, (_, index) =>
      items.slice(index * size, index * size + size),
    );

  it("assembles staged batches into one save, in order, and reads back identical", async () => {
    const row = await createEmpty(alice);
    const data = makeWorkflow("Batched", 45, 60_000); // ≈ 2.7 MB over 45 nodes
    const batches = batchesOf(data.nodes, 20);
    expect(batches).toHaveLength(3);
    // Sent out of order, and batch 1 twice (a retry): the commit still holds each node once.
    for (const index of [2, 1, 0, 1]) {
      const sent = await alice.json(
        "PUT",
        `/api/workflows/${row.id}/saves/save-0001/batches/${index}`,
        { nodes: batches[index] },
      );
      expect(sent.status).toBe(200);
    }
    const committed = await alice.json<{ workflow: Row }>(
      "POST",
      `/api/workflows/${row.id}/saves/save-0001/commit`,
      {
        name: "Batched",
        basedOn: row.updated_at,
        batches: 3,
        data: { ...data, nodes: [] },
      },
    );
    expect(committed.status).toBe(200);
    const read = await alice.json<{ workflow: Row }>("GET", `/api/workflows/${row.id}`);
    expect(read.body.workflow.data.nodes).toEqual(data.nodes);
    expect(read.body.workflow.data.edges).toEqual(data.edges);
    expect(read.body.workflow.is_chunked).toBe(false);
  });

  it("refuses a commit with a missing batch and keeps the previous version", async () => {
    const row = await createEmpty(alice);
    const data = makeWorkflow("Batched", 30, 10);
    await alice.json("PUT", `/api/workflows/${row.id}/saves/save-0002/batches/0`, {
      nodes: data.nodes.slice(0, 20),
    });
    const committed = await alice.json<{ error: string }>(
      "POST",
      `/api/workflows/${row.id}/saves/save-0002/commit`,
      { name: "Batched", basedOn: row.updated_at, batches: 2, data: { ...data, nodes: [] } },
    );
    expect(committed.status).toBe(400);
    expect(committed.body.error).toBe("Failed to finalize workflow save: batch 1 is missing");
    const read = await alice.json<{ workflow: Row }>("GET", `/api/workflows/${row.id}`);
    expect(read.body.workflow.data.nodes).toHaveLength(1);
    expect(read.body.workflow.updated_at).toBe(row.updated_at);
  });

  it("answers a stale commit with 409 and the current version", async () => {
    const row = await createEmpty(alice);
    const data = makeWorkflow("Batched", 2, 10);
    const first = await alice.json<{ workflow: Row }>("PUT", `/api/workflows/${row.id}`, {
      name: "Batched",
      data,
      basedOn: row.updated_at,
    });
    await alice.json("PUT", `/api/workflows/${row.id}/saves/save-0003/batches/0`, {
      nodes: data.nodes,
    });
    const stale = await alice.json<{ updated_at: string }>(
      "POST",
      `/api/workflows/${row.id}/saves/save-0003/commit`,
      { name: "Batched", basedOn: row.updated_at, batches: 1, data: { ...data, nodes: [] } },
    );
    expect(stale.status).toBe(409);
    expect(stale.body.updated_at).toBe(first.body.workflow.updated_at);
  });

  it("refuses more than 20 nodes in a batch, and another user's workflow is 404", async () => {
    const row = await createEmpty(alice);
    const tooMany = await alice.json<{ error: string }>(
      "PUT",
      `/api/workflows/${row.id}/saves/save-0004/batches/0`,
      { nodes: makeWorkflow("x", 21).nodes },
    );
    expect(tooMany.status).toBe(400);
    const foreign = await bob.json("PUT", `/api/workflows/${row.id}/saves/save-0004/batches/0`, {
      nodes: [],
    });
    expect(foreign.status).toBe(404);
    const badId = await alice.json("PUT", `/api/workflows/${row.id}/saves/..%2F..%2Fx/batches/0`, {
      nodes: [],
    });
    expect(badId.status).toBe(400);
  });

  it("keeps texts of any characters byte for byte, in chunks over 5 MB", async () => {
    const row = await createEmpty(alice);
    const data = makeWorkflow("Batched", 45, 120_000); // ≈ 5.4 MB: stored in chunks
    data.nodes.forEach((node, index) => {
      node.data = { ...node.data, label: `Nœud ${index} — 東京 🎨 "quoted" \\ line\nbreak` };
    });
    const batches = batchesOf(data.nodes, 20);
    for (const [index, nodes] of batches.entries()) {
      const sent = await alice.json(
        "PUT",
        `/api/workflows/${row.id}/saves/save-0005/batches/${index}`,
        { nodes },
      );
      expect(sent.status).toBe(200);
    }
    const body = { name: "Batched", batches: batches.length, data: { ...data, nodes: [] } };
    const committed = await alice.json<{ workflow: Row }>(
      "POST",
      `/api/workflows/${row.id}/saves/save-0005/commit`,
      { ...body, basedOn: row.updated_at },
    );
    expect(committed.status).toBe(200);
    const read = await alice.json<{ workflow: Row }>("GET", `/api/workflows/${row.id}`);
    expect(read.body.workflow.is_chunked).toBe(true);
    expect(read.body.workflow.data.nodes).toEqual(data.nodes);
    // The same save again rewrites no chunk: the staged texts are the stored ones exactly.
    for (const [index, nodes] of batches.entries())
      await alice.json("PUT", `/api/workflows/${row.id}/saves/save-0006/batches/${index}`, {
        nodes,
      });
    const again = await alice.json<{ workflow: Row; chunksWritten: number }>(
      "POST",
      `/api/workflows/${row.id}/saves/save-0006/commit`,
      { ...body, basedOn: committed.body.workflow.updated_at },
    );
    expect(again.status).toBe(200);
    expect(again.body.chunksWritten).toBe(0);
  });

  it("keeps another user out of a save in progress, batches and commit alike", async () => {
    const row = await createEmpty(alice);
    const data = makeWorkflow("Batched", 2, 10);
    const path = `/api/workflows/${row.id}/saves/save-0007`;
    expect((await alice.json("PUT", `${path}/batches/0`, { nodes: data.nodes })).status).toBe(200);
    // Alice's workflow was looked up for this save; Bob's requests are looked up on their own.
    expect((await bob.json("PUT", `${path}/batches/0`, { nodes: [] })).status).toBe(404);
    const commit = { name: "Stolen", basedOn: row.updated_at, batches: 1, data };
    expect((await bob.json("POST", `${path}/commit`, commit)).status).toBe(404);
    const read = await alice.json<{ workflow: Row }>("GET", `/api/workflows/${row.id}`);
    expect(read.body.workflow.updated_at).toBe(row.updated_at);
  });

  it("never reaches outside the user's own staging folder, whatever the ids say", async () => {
    const row = await createEmpty(bob);
    const uploaded = await bob.raw("POST", "/api/media", {
      body: uploadForm(
        { name: "keep.png", type: "image/png", bytes: await pngBytes() },
        { workflowId: row.id, kind: "image" },
      ),
    });
    expect(uploaded.status).toBe(201);
    const { path } = (await uploaded.json()) as { path: string };
    const bobId = path.split("/")[0] as string;
    // "../.." as the workflow id would make the staging prefix Bob's own media folder.
    const crafted = await alice.json("DELETE", `/api/workflows/..%2F..%2F/saves/${bobId}`);
    expect(crafted.status).toBe(404);
    const commit = { name: "x", basedOn: row.updated_at, batches: 1e10, data: makeWorkflow() };
    expect(
      (await alice.json("POST", `/api/workflows/${row.id}/saves/save-0009/commit`, commit)).status,
    ).toBe(404);
    const own = await alice.json(
      "POST",
      `/api/workflows/${(await createEmpty(alice)).id}/saves/save-0009/commit`,
      commit,
    );
    expect(own.status).toBe(400);
    expect((await fetch(`${server.url}/api/media/file/${path}`)).status).toBe(200);
  });

  it("refuses the batches and commit of a signed-out session at once", async () => {
    const carol = new TestClient(server.url);
    await carol.signUp(`carol-batches-${memoryMb}@example.com`);
    const row = await createEmpty(carol);
    const data = makeWorkflow("Batched", 2, 10);
    const path = `/api/workflows/${row.id}/saves/save-0008`;
    expect((await carol.json("PUT", `${path}/batches/0`, { nodes: data.nodes })).status).toBe(200);
    const cookie = carol.cookieHeader();
    expect((await carol.json("POST", "/api/auth/sign-out", {})).status).toBe(200);
    const send = (method: string, url: string, body: unknown) =>
      fetch(`${server.url}${url}`, {
        method,
        headers: { cookie, "content-type": "application/json", origin: server.url },
        body: JSON.stringify(body),
      }).then((response) => response.status);
    expect(await send("PUT", `${path}/batches/1`, { nodes: [] })).toBe(401);
    const commit = { name: "Batched", basedOn: row.updated_at, batches: 1, data };
    expect(await send("POST", `${path}/commit`, commit)).toBe(401);
  });
});
