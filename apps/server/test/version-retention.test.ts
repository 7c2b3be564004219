import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { saveWorkflow } from "../src/commands/workflow-storage/full-save.ts";
import { partsOf } from "../src/commands/workflow-storage/stored-form.ts";
import {
  listVersions,
  nameVersion,
  readVersion,
} from "../src/commands/workflow-storage/version-history.ts";
import { versionsToDrop } from "../src/commands/workflow-storage/version-retention.ts";
import { createWorkflow } from "../src/commands/workflow-storage/workflow-rows.ts";
import type { AppDb } from "../src/db/client.ts";
import { user } from "../src/db/schema.ts";
import { createTestDatabase, type TestDatabase } from "./helpers/database.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 0, 1);
const at = (days: number, hours: number, minutes = 0) =>
  new Date(T0 + days * DAY + hours * 3_600_000 + minutes * 60_000);

describe("version retention", () => {
  it("keeps every version for 7 days, the last of each hour to 30 days, then the last of each day", () => {
    const now = at(40, 0);
    const versions = [
      { seq: 1, createdAt: at(5, 10, 0), name: null }, // 35 days: day 5 → keeps 2
      { seq: 2, createdAt: at(5, 23, 0), name: null },
      { seq: 3, createdAt: at(20, 10, 5), name: null }, // 20 days: hour 10 → keeps 4
      { seq: 4, createdAt: at(20, 10, 55), name: null },
      { seq: 5, createdAt: at(20, 11, 0), name: "Named" }, // named: kept, counts for nothing
      { seq: 6, createdAt: at(35, 1, 0), name: null }, // under 7 days: all kept
      { seq: 7, createdAt: at(35, 1, 1), name: null },
    ];
    expect(versionsToDrop(versions, now)).toEqual([1, 3]);
    expect(versionsToDrop(versions, at(12, 0))).toEqual([]);
  });
});

describe("version retention on saves (a fake clock)", () => {
  let test: TestDatabase;
  let db: AppDb;
  beforeAll(async () => {
    test = await createTestDatabase();
    db = test.database.db;
    await db.insert(user).values({ id: "u1", name: "Ada", email: "ada-retention@example.com" });
  });
  afterAll(() => test.drop());
  afterEach(() => vi.useRealTimers());

  it("thins old versions as saves come, keeps named ones, and drops chunks no version holds", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const data = makeWorkflow("Aging", 3);
    const withPrompt = (text: string) => ({
      ...data,
      nodes: data.nodes.map((node, index) =>
        index === 0
          ? { ...node, data: { ...node.data, inputValues: { prompt: { value: text } } } }
          : node,
      ),
    });
    vi.setSystemTime(at(0, 10, 0));
    const { row } = await createWorkflow(db, "u1", { name: "Aging", data: withPrompt("v1") });
    let basedOn = row.updatedAt.toISOString();
    const saveAt = async (when: Date, prompt: string) => {
      vi.setSystemTime(when);
      const saved = await saveWorkflow(db, "u1", row.id, {
        name: "Aging",
        basedOn,
        parts: partsOf(withPrompt(prompt), row.id),
      });
      basedOn = saved.row.updatedAt.toISOString();
      return saved.version;
    };
    await saveAt(at(0, 10, 10), "v2");
    await saveAt(at(0, 10, 50), "v3");
    await saveAt(at(0, 11, 30), "v4");
    await saveAt(at(1, 9, 0), "v5");
    await saveAt(at(1, 15, 0), "v6");
    await saveAt(at(1, 16, 0), "v7");
    await nameVersion(db, row.id, 7, "Keep me");
    await saveAt(at(1, 16, 30), "v8");
    const seqs = async () => (await listVersions(db, row.id)).map((version) => version.seq);
    expect(await seqs()).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);

    // Eight days on: the last of each hour stays.
    expect(await saveAt(at(8, 12, 0), "v9")).toBe(9);
    expect(await seqs()).toEqual([9, 8, 7, 6, 5, 4, 3]);

    // Forty days on: the last of each day, and the named one.
    expect(await saveAt(at(40, 12, 0), "v10")).toBe(10);
    expect(await seqs()).toEqual([10, 9, 8, 7, 4]);
    const listed = await listVersions(db, row.id);
    expect(listed.find((version) => version.seq === 7)?.name).toBe("Keep me");
    const kept = await readVersion(db, row.id, 7);
    expect(kept.data.nodes[0]?.data.inputValues).toEqual({ prompt: { value: "v7" } });

    // Each chunk left is held by a version, and each version's chunks are all there.
    const { rows } = (await db.execute(sql`
      select
        (select count(*) from workflow_version_chunks c where c.workflow_id = ${row.id}
           and not exists (select 1 from workflow_versions v
                           where v.workflow_id = c.workflow_id and c.hash = any(v.chunk_hashes))) as orphans,
        (select count(*) from workflow_versions v, unnest(v.chunk_hashes) h where v.workflow_id = ${row.id}
           and not exists (select 1 from workflow_version_chunks c
                           where c.workflow_id = v.workflow_id and c.hash = h)) as missing
    `)) as unknown as { rows: { orphans: string | number; missing: string | number }[] };
    expect(Number(rows[0]?.orphans)).toBe(0);
    expect(Number(rows[0]?.missing)).toBe(0);
    for (const seq of [10, 9, 8, 4]) {
      const version = await readVersion(db, row.id, seq);
      expect(version.data.nodes[0]?.data.inputValues).toEqual({ prompt: { value: `v${seq}` } });
    }
  });
});
