import type { SavedNode, SavedWorkflow, VersionEntry } from "@atelier/core";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./helpers/client.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

interface Row {
  id: string;
  name: string;
  updated_at: string;
  data: SavedWorkflow | null;
}

const promptNode = (node: SavedNode, text: string): SavedNode => ({
  ...node,
  data: { ...node.data, inputValues: { prompt: { value: text } } },
});
const withPrompt = (data: SavedWorkflow, index: number, text: string): SavedWorkflow => ({
  ...data,
  nodes: data.nodes.map((node, at) => (at === index ? promptNode(node, text) : node)),
});
const promptOf = (data: SavedWorkflow | null | undefined, index = 0) =>
  (data?.nodes[index]?.data.inputValues as { prompt?: { value?: string } } | undefined)?.prompt
    ?.value;
const headOf = ({ nodes: _nodes, edges: _edges, ...head }: SavedWorkflow) => head;

describe("version history (GET/PATCH /api/workflows/:id/versions…, POST …/restore)", () => {
  let server: TestServer;
  let alice: TestClient;
  let bob: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    alice = new TestClient(server.url);
    bob = new TestClient(server.url);
    await alice.signUp("alice-versions@example.com");
    await bob.signUp("bob-versions@example.com");
  });
  afterAll(() => server.close());

  const create = async (data: SavedWorkflow) =>
    (await alice.json<{ workflow: Row }>("POST", "/api/workflows", { name: "Flow", data })).body
      .workflow;
  const save = async (row: Row, data: SavedWorkflow) => {
    const answer = await alice.json<{ workflow: Row }>("PUT", `/api/workflows/${row.id}`, {
      name: "Flow",
      basedOn: row.updated_at,
      data,
    });
    expect(answer.status).toBe(200);
    return answer.body.workflow;
  };
  const versions = async (id: string, client = alice) =>
    client.json<{ versions: VersionEntry[] }>("GET", `/api/workflows/${id}/versions`);

  it("records every save, lists newest first with what changed, opens and restores one", async () => {
    const first = makeWorkflow("Flow", 3);
    let row = await create(withPrompt(first, 0, "a red fox"));
    row = await save(row, withPrompt(first, 0, "a blue fox"));
    row = await save(row, withPrompt(first, 0, "a green fox"));
    row = await save(row, withPrompt(first, 0, "a gold fox"));

    const listed = await versions(row.id);
    expect(listed.status).toBe(200);
    expect(listed.body.versions.map((version) => version.id)).toEqual([4, 3, 2, 1]);
    expect(listed.body.versions[0]).toMatchObject({
      author: "alice-versions",
      summary: { added: 0, removed: 0, changed: 1 },
    });
    expect(listed.body.versions[3]?.summary).toEqual({ added: 3, removed: 0, changed: 0 });

    const one = await alice.json<{ version: { id: number }; data: SavedWorkflow }>(
      "GET",
      `/api/workflows/${row.id}/versions/1`,
    );
    expect(one.status).toBe(200);
    expect(one.body.version.id).toBe(1);
    expect(promptOf(one.body.data)).toBe("a red fox");
    expect(one.body.data.nodes).toHaveLength(3);

    const restored = await alice.json<{ workflow: Row; version: number }>(
      "POST",
      `/api/workflows/${row.id}/versions/1/restore`,
      {},
    );
    expect(restored.status).toBe(200);
    expect(restored.body.version).toBe(5);
    expect(promptOf(restored.body.workflow.data)).toBe("a red fox");
    const opened = await alice.json<{ workflow: Row }>("GET", `/api/workflows/${row.id}`);
    expect(promptOf(opened.body.workflow.data)).toBe("a red fox");
    const after = (await versions(row.id)).body.versions;
    expect(after.map((version) => version.id)).toEqual([5, 4, 3, 2, 1]);
    expect(after[0]).toMatchObject({ restored_from: 1, summary: { changed: 1 } });

    // Restoring again undoes the restore.
    await alice.json("POST", `/api/workflows/${row.id}/versions/4/restore`, {});
    const back = await alice.json<{ workflow: Row }>("GET", `/api/workflows/${row.id}`);
    expect(promptOf(back.body.workflow.data)).toBe("a gold fox");
  });

  it("records delta saves too, and names a version", async () => {
    const data = makeWorkflow("Flow", 2);
    const row = await create(data);
    const changed = withPrompt(data, 1, "delta prompt");
    const patched = await alice.json<{ workflow: Row }>("PATCH", `/api/workflows/${row.id}`, {
      name: "Flow",
      basedOn: row.updated_at,
      data: headOf(changed),
      nodes: [changed.nodes[1]],
      removed: [],
    });
    expect(patched.status).toBe(200);
    const named = await alice.json("PATCH", `/api/workflows/${row.id}/versions/2`, {
      name: "  Before the party  ",
    });
    expect(named.status).toBe(200);
    const listed = (await versions(row.id)).body.versions;
    expect(listed[0]).toMatchObject({ id: 2, name: "Before the party", summary: { changed: 1 } });
    const version = await alice.json<{ data: SavedWorkflow }>(
      "GET",
      `/api/workflows/${row.id}/versions/2`,
    );
    expect(promptOf(version.body.data, 1)).toBe("delta prompt");
    const bad = await alice.json<{ error: string }>(
      "PATCH",
      `/api/workflows/${row.id}/versions/2`,
      { name: "x".repeat(101) },
    );
    expect(bad.status).toBe(400);
  });

  it("answers 404 for another user's versions and for versions that never were", async () => {
    const row = await create(makeWorkflow("Flow", 2));
    expect((await versions(row.id, bob)).status).toBe(404);
    for (const [method, path] of [
      ["GET", `/api/workflows/${row.id}/versions/1`],
      ["POST", `/api/workflows/${row.id}/versions/1/restore`],
    ] as const) {
      const answer = await bob.json<{ error: string }>(
        method,
        path,
        method === "GET" ? undefined : {},
      );
      expect(answer.status).toBe(404);
    }
    const missing = await alice.json<{ error: string }>(
      "GET",
      `/api/workflows/${row.id}/versions/9`,
    );
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("Version not found");
    const restoreMissing = await alice.json<{ error: string }>(
      "POST",
      `/api/workflows/${row.id}/versions/9/restore`,
      {},
    );
    expect(restoreMissing.status).toBe(404);
  });

  /**
   * 100 one-prompt edits of a 5.2 MB workflow (520 nodes of 10 KB, chunks of 10 nodes): how
   * much the version tables grow on disk, against the logical size of one chunk.
   */
  async function hundredEdits(text: (length: number, seed: number) => string) {
    const small = makeWorkflow("Big", 520, 10);
    let data = {
      ...small,
      nodes: small.nodes.map((node, index) => promptNode(node, text(10_000, index + 1))),
    };
    let row = await create(data);
    const db = server.ctx.database.db;
    const scalar = async (query: ReturnType<typeof sql>) => {
      const { rows } = (await db.execute(query)) as unknown as { rows: { value: unknown }[] };
      return Number(rows[0]?.value);
    };
    const versionBytes = () =>
      scalar(
        sql`select pg_total_relation_size('workflow_versions') + pg_total_relation_size('workflow_version_chunks') as value`,
      );
    const chunkSize = await scalar(
      sql`select max(size_bytes) as value from workflow_chunks where workflow_id = ${row.id}`,
    );
    const before = await versionBytes();
    for (let edit = 0; edit < 100; edit += 1) {
      data = withPrompt(data, edit * 5, text(10_000, 9_000 + edit));
      row = await save(row, data);
    }
    const grown = (await versionBytes()) - before;
    const perEdit = grown / 100 / chunkSize;
    console.info(
      `100 one-prompt edits of a ${(JSON.stringify(data).length / 1e6).toFixed(2)} MB workflow: the version tables grew ${(grown / 1e6).toFixed(2)} MB; one chunk is ${(chunkSize / 1e3).toFixed(1)} KB, so ${perEdit.toFixed(2)} chunks an edit`,
    );
    const listed = (await versions(row.id)).body.versions;
    expect(listed).toHaveLength(101);
    expect(listed[0]?.summary).toEqual({ added: 0, removed: 0, changed: 1 });
    const oldest = await alice.json<{ data: SavedWorkflow }>(
      "GET",
      `/api/workflows/${row.id}/versions/1`,
    );
    expect(promptOf(oldest.body.data, 0)).toBe(text(10_000, 1));
    expect(chunkSize).toBeGreaterThan(100_000);
    return perEdit;
  }

  /** A deterministic stream of numbers from `seed`. */
  const numbers = (seed: number) => {
    let state = seed;
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state;
    };
  };
  const WORDS = Array.from({ length: 3000 }, (_, index) => index.toString(36).padEnd(5, "aeiou"));

  it("versions share unchanged chunks: 100 one-prompt edits of 5 MB of prompts add ≤ 100 chunks", async () => {
    const prompts = (length: number, seed: number) => {
      const next = numbers(seed);
      const words: string[] = [];
      let size = 0;
      while (size < length) {
        const word = WORDS[next() % WORDS.length] as string;
        words.push(word);
        size += word.length + 1;
      }
      return words.join(" ").slice(0, length);
    };
    expect(await hundredEdits(prompts)).toBeLessThanOrEqual(1);
  }, 240_000);

  it("with text that does not compress, an edit adds one chunk and its pages: ≤ 1.15 chunks", async () => {
    const noise = (length: number, seed: number) => {
      const next = numbers(seed);
      let text = "";
      while (text.length < length) text += next().toString(36);
      return text.slice(0, length);
    };
    expect(await hundredEdits(noise)).toBeLessThanOrEqual(1.15);
  }, 240_000);
});
