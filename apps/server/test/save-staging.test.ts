import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WORKFLOW_ERRORS } from "@atelier/core";
import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { SaveStaging } from "../src/commands/workflow-storage/staged-batches-memory.ts";
import { createFsStore } from "../src/storage/fs-store.ts";
import { createTestDatabase, TEST_DB_KIND } from "./helpers/database.ts";

const node = (id: string, prompt = "a lighthouse at dusk") => ({
  id,
  type: "text-prompt",
  position: { x: 1, y: 2 },
  data: { prompt },
});
const batch = (first: number, count = 20) =>
  Array.from({ length: count }, (_, at) => node(`n${first + at}`));
const bytesOf = (nodes: object[]) =>
  nodes.reduce((sum, item) => sum + Buffer.byteLength(JSON.stringify(item)), 0);
const ids = { userId: "alice", workflowId: "w1", saveId: "save-1" };

describe("staging the batches of a large save", () => {
  const root = mkdtempSync(join(tmpdir(), "atelier-staging-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  let store = createFsStore(root, "media");
  beforeEach(() => {
    store = createFsStore(mkdtempSync(join(root, "run-")), "media");
  });
  const storedKeys = () => store.list("staging/");

  it("keeps batches within the memory budget out of the store, in order, a retry replacing", async () => {
    const staging = new SaveStaging(store, 1024 * 1024);
    await staging.stage(ids, 1, batch(20));
    await staging.stage(ids, 0, batch(0));
    await staging.stage(ids, 1, batch(20)); // a retried batch
    expect(await storedKeys()).toEqual([]);
    expect(staging.bytes).toBe(bytesOf(batch(0)) + bytesOf(batch(20)));
    const nodes = await staging.read(ids, 2);
    expect(nodes.map((item) => item.id)).toEqual([...batch(0), ...batch(20)].map((n) => n.id));
    expect(nodes[0]).toEqual({
      id: "n0",
      text: JSON.stringify(node("n0")),
      bytes: Buffer.byteLength(JSON.stringify(node("n0"))),
    });
    await staging.drop(ids);
    expect(staging.bytes).toBe(0);
  });

  it("puts batches beyond the budget in the store and reads both back", async () => {
    const staging = new SaveStaging(store, bytesOf(batch(0)) + 10);
    await staging.stage(ids, 0, batch(0));
    await staging.stage(ids, 1, batch(20));
    await staging.stage(ids, 2, batch(40, 5));
    expect(await storedKeys()).toHaveLength(2);
    const nodes = await staging.read(ids, 3);
    expect(nodes.map((item) => item.id)).toEqual(
      [...batch(0), ...batch(20), ...batch(40, 5)].map((n) => n.id),
    );
    expect(nodes.map((item) => item.text)).toEqual(
      [...batch(0), ...batch(20), ...batch(40, 5)].map((n) => JSON.stringify(n)),
    );
    await staging.drop(ids);
    expect(await storedKeys()).toEqual([]);
    expect(staging.bytes).toBe(0);
  });

  it("stages only in the store without a memory budget, so another process can commit", async () => {
    const one = new SaveStaging(store, 0);
    const other = new SaveStaging(store, 0);
    await one.stage(ids, 0, batch(0));
    await other.stage(ids, 1, batch(20, 3));
    await one.stage(ids, 2, []); // an empty batch too goes to the store
    expect(one.bytes).toBe(0);
    expect(await storedKeys()).toHaveLength(3);
    const nodes = await other.read(ids, 3);
    expect(nodes.map((item) => item.id)).toEqual([...batch(0), ...batch(20, 3)].map((n) => n.id));
    await other.drop(ids);
    expect(await storedKeys()).toEqual([]);
  });

  it("fails a commit whose batch is missing, naming it", async () => {
    const staging = new SaveStaging(store, 1024 * 1024);
    await staging.stage(ids, 0, batch(0));
    await staging.stage(ids, 2, batch(40));
    await expect(staging.read(ids, 3)).rejects.toThrow(
      `${WORKFLOW_ERRORS.finalize}: batch 1 is missing`,
    );
  });

  it("lets go of a save left idle, freeing its memory", async () => {
    const staging = new SaveStaging(store, 1024 * 1024, { idleMs: 60_000 });
    await staging.stage(ids, 0, batch(0), 1_000);
    const later = { ...ids, saveId: "save-2" };
    await staging.stage(later, 0, batch(0), 1_000 + 60_001);
    expect(staging.bytes).toBe(bytesOf(batch(0)));
    await expect(staging.read(ids, 1)).rejects.toThrow(
      `${WORKFLOW_ERRORS.finalize}: batch 0 is missing`,
    );
    expect((await staging.read(later, 1)).map((item) => item.id)).toEqual(
      batch(0).map((n) => n.id),
    );
  });

  it("keeps other users' and other saves' batches apart", async () => {
    const staging = new SaveStaging(store, 1024 * 1024);
    await staging.stage(ids, 0, batch(0));
    await expect(staging.read({ ...ids, userId: "bob" }, 1)).rejects.toThrow("batch 0 is missing");
    await expect(staging.read({ ...ids, saveId: "save-9" }, 1)).rejects.toThrow(
      "batch 0 is missing",
    );
  });
});

describe("chunk texts in the database", () => {
  it("are compressed with lz4 where the database has it, and stored uncompressed in PGlite", async () => {
    const test = await createTestDatabase();
    try {
      const query = async <T>(statement: SQL) =>
        ((await test.database.db.execute(statement)) as unknown as { rows: T[] }).rows;
      const settings = await query<{ lz4: boolean }>(
        sql`select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`,
      );
      const rows = await query<{ compression: string; storage: string }>(
        sql`select attcompression as compression, attstorage as storage from pg_attribute
            where attrelid = 'workflow_chunks'::regclass and attname = 'data'`,
      );
      const lz4 = settings[0]?.lz4 === true;
      if (TEST_DB_KIND === "pglite") expect(lz4).toBe(false);
      const expected = lz4
        ? { compression: "l", storage: "x" }
        : { compression: "", storage: TEST_DB_KIND === "pglite" ? "e" : "x" };
      expect(rows[0]).toEqual(expected);
    } finally {
      await test.drop();
    }
  });
});
