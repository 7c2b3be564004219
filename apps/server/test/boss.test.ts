import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type SQL, sql } from "drizzle-orm";
import type PgBoss from "pg-boss";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../src/db/client.ts";
import { BOSS_SCHEMA, startBoss, stopBoss } from "../src/jobs/boss.ts";
import { createTestDatabase, TEST_DB_KIND, type TestDatabase } from "./helpers/database.ts";

interface Payload {
  prompt: string;
  seed: number;
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Rows of a raw query; both drizzle drivers (pglite, node-postgres) answer `{ rows }`. */
async function rowsOf(database: Database, query: SQL): Promise<Record<string, unknown>[]> {
  const result = (await database.db.execute(query)) as { rows: Record<string, unknown>[] };
  return result.rows;
}

/**
 * pg-boss on the app's own database: PGlite in the "server" project, PostgreSQL in
 * "server (PostgreSQL)". One database per file; each test gets a pg-boss schema of its own.
 */
describe(`job queue engine (pg-boss on ${TEST_DB_KIND})`, () => {
  let testDb: TestDatabase;
  const running = new Set<PgBoss>();
  const schemas: string[] = [];
  const errors: unknown[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase();
  });

  afterEach(async () => {
    await Promise.all([...running].map((boss) => stop(boss)));
    for (const schema of schemas.splice(0)) {
      await testDb.database.db.execute(sql.raw(`drop schema if exists ${schema} cascade`));
    }
    expect(errors.splice(0)).toEqual([]);
  });

  afterAll(async () => {
    await testDb?.drop();
  });

  function uniqueSchema(): string {
    const schema = `pgboss_test_${randomBytes(6).toString("hex")}`;
    schemas.push(schema);
    return schema;
  }

  async function start(schema: string, database: Database = testDb.database): Promise<PgBoss> {
    const boss = await startBoss(database, {
      connectionString: testDb.url,
      schema,
      onError: (error) => errors.push(error),
    });
    running.add(boss);
    return boss;
  }

  async function stop(boss: PgBoss): Promise<void> {
    running.delete(boss);
    await stopBoss(boss, { timeoutMs: 5_000 });
  }

  async function jobRow(
    schema: string,
    id: string,
    database: Database = testDb.database,
  ): Promise<Record<string, unknown> | undefined> {
    const rows = await rowsOf(
      database,
      sql`select state, retry_count, output, data from ${sql.identifier(schema)}.job where id = ${id}`,
    );
    return rows[0];
  }

  it("works a job: the handler gets the payload and singletonKey, and the job completes", async () => {
    const schema = uniqueSchema();
    const boss = await start(schema);
    await boss.createQueue("render");
    const got = deferred<PgBoss.JobWithMetadata<Payload>>();
    await boss.work<Payload>("render", { includeMetadata: true }, async ([job]) => {
      if (job) got.resolve(job);
      return { ok: true };
    });

    const id = await boss.send(
      "render",
      { prompt: "a red fox", seed: 7 },
      { singletonKey: "node-1" },
    );
    expect(id).toEqual(expect.any(String));
    const job = await got.promise;
    expect(job).toMatchObject({
      id,
      name: "render",
      data: { prompt: "a red fox", seed: 7 },
      singletonKey: "node-1",
      state: "active",
      retryCount: 0,
    });

    // stopBoss waits for the completion pg-boss sends without awaiting it.
    await stop(boss);
    expect(await jobRow(schema, id as string)).toMatchObject({
      state: "completed",
      output: { ok: true },
    });
  });

  it("retries a failing handler per retryLimit/retryDelay, then fails the job", async () => {
    const schema = uniqueSchema();
    const boss = await start(schema);
    await boss.createQueue("dead");
    await boss.createQueue("flaky", {
      name: "flaky",
      retryLimit: 1,
      retryDelay: 1,
      deadLetter: "dead",
    });
    const attempts: { at: number; retryCount: number }[] = [];
    await boss.work<Payload>("flaky", { includeMetadata: true }, async ([job]) => {
      attempts.push({ at: Date.now(), retryCount: job?.retryCount ?? -1 });
      throw new Error("provider said no");
    });
    // A job that exhausts its retries is copied to its dead-letter queue as it fails.
    const dead = deferred<PgBoss.Job<Payload>>();
    await boss.work<Payload>("dead", async ([job]) => {
      if (job) dead.resolve(job);
    });

    const id = (await boss.send("flaky", { prompt: "x", seed: 1 })) as string;
    const letter = await dead.promise;

    expect(letter.data).toEqual({ prompt: "x", seed: 1 });
    expect(attempts.map((attempt) => attempt.retryCount)).toEqual([0, 1]);
    const [first, second] = attempts;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
    const failed = await boss.getJobById<Payload>("flaky", id);
    expect(failed).toMatchObject({ state: "failed", retryCount: 1, retryLimit: 1, retryDelay: 1 });
    expect(failed?.output).toMatchObject({ message: "provider said no" });
  });

  it("keeps a queued job across a restart and works it afterwards", async () => {
    const schema = uniqueSchema();
    let dataDir: string | null = null;
    let first = testDb.database;
    let second = testDb.database;
    if (TEST_DB_KIND === "pglite") {
      // A real data directory, closed and opened again, as `npm start` twice would.
      dataDir = mkdtempSync(join(tmpdir(), "atelier-boss-"));
      const template = await (
        testDb.database.pglite as NonNullable<Database["pglite"]>
      ).dumpDataDir("none");
      first = await openDatabase({ dataDir, loadDataDir: template });
    }
    try {
      const before = await start(schema, first);
      await before.createQueue("render");
      const id = await before.send("render", { prompt: "kept", seed: 3 });
      await stop(before);
      if (dataDir) {
        await first.close();
        second = await openDatabase({ dataDir });
      }

      const after = await start(schema, second);
      expect((await after.getJobById("render", id as string))?.state).toBe("created");
      const got = deferred<PgBoss.Job<Payload>>();
      await after.work<Payload>("render", async ([job]) => {
        if (job) got.resolve(job);
      });
      const job = await got.promise;
      expect(job).toMatchObject({ id, data: { prompt: "kept", seed: 3 } });
      await stop(after);
      expect((await jobRow(schema, id as string, second))?.state).toBe("completed");
    } finally {
      if (dataDir) {
        await first.close();
        await second.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  });

  it("starts twice at once on one database (install race) and both instances work", async () => {
    const schema = uniqueSchema();
    const [a, b] = await Promise.all([start(schema), start(schema)]);
    expect(await a.schemaVersion()).toBe(await b.schemaVersion());
    await a.createQueue("render");
    await b.createQueue("render");
    const got = deferred<PgBoss.Job<Payload>>();
    await b.work<Payload>("render", async ([job]) => {
      if (job) got.resolve(job);
    });
    const id = await a.send("render", { prompt: "shared", seed: 2 });
    expect((await got.promise).id).toBe(id);
    // The app's own connection is unharmed by the race pg-boss lost on purpose.
    expect(await testDb.database.ping()).toBe(true);
    const rows = await rowsOf(testDb.database, sql`select 1 as one`);
    expect(rows).toEqual([{ one: 1 }]);
  });

  it("de-duplicates by singletonKey as pg-boss 10 does: per queue policy or time slot", async () => {
    const schema = uniqueSchema();
    const boss = await start(schema);

    // standard queue, key alone: no de-duplication.
    await boss.createQueue("standard");
    const s1 = await boss.send("standard", { n: 1 }, { singletonKey: "k" });
    const s2 = await boss.send("standard", { n: 2 }, { singletonKey: "k" });
    expect(s1).toEqual(expect.any(String));
    expect(s2).toEqual(expect.any(String));
    expect(s2).not.toBe(s1);
    expect(await boss.getQueueSize("standard")).toBe(2);

    // standard queue, key + time slot: one job per key per slot (an hour: the test cannot
    // straddle a slot boundary in practice).
    await boss.createQueue("throttled");
    const t1 = await boss.send("throttled", { n: 1 }, { singletonKey: "k", singletonHours: 1 });
    const t2 = await boss.send("throttled", { n: 2 }, { singletonKey: "k", singletonHours: 1 });
    expect(t1).toEqual(expect.any(String));
    expect(t2).toBeNull();

    // short queue: one *queued* job per key; once it is active, the next one is accepted.
    await boss.createQueue("short", { name: "short", policy: "short" });
    const q1 = await boss.send("short", { n: 1 }, { singletonKey: "node-1" });
    const q2 = await boss.send("short", { n: 2 }, { singletonKey: "node-1" });
    const other = await boss.send("short", { n: 3 }, { singletonKey: "node-2" });
    expect(q1).toEqual(expect.any(String));
    expect(q2).toBeNull();
    expect(other).toEqual(expect.any(String));
    expect(await boss.getQueueSize("short")).toBe(2);
    const [fetched] = await boss.fetch<{ n: number }>("short");
    expect(fetched).toMatchObject({ id: q1, data: { n: 1 } });
    const q3 = await boss.send("short", { n: 4 }, { singletonKey: "node-1" });
    expect(q3).toEqual(expect.any(String));
    expect(q3).not.toBe(q1);
  });

  it("a stopped instance is gone for good; a new one starts on the same schema", async () => {
    const schema = uniqueSchema();
    const boss = await start(schema);
    await boss.createQueue("render");
    await stop(boss);
    await expect(boss.work("render", async () => undefined)).rejects.toThrow(
      "Workers are disabled. pg-boss is stopped",
    );
    const again = await start(schema);
    expect(await again.getQueue("render")).toMatchObject({ name: "render", policy: "standard" });
  });

  it("stopBoss lets a running handler finish and records its completion", async () => {
    const schema = uniqueSchema();
    const boss = await start(schema);
    await boss.createQueue("render");
    const started = deferred<string>();
    const release = deferred<void>();
    await boss.work<Payload>("render", async ([job]) => {
      started.resolve(job?.id ?? "");
      await release.promise;
      return { done: true };
    });
    const id = await boss.send("render", { prompt: "slow", seed: 4 });
    expect(await started.promise).toBe(id);

    let stopped = false;
    const stopping = stop(boss).then(() => {
      stopped = true;
    });
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release.resolve();
    await stopping;
    expect(await jobRow(schema, id as string)).toMatchObject({
      state: "completed",
      output: { done: true },
    });
  });

  it("stopBoss gives up on a handler after its timeout; the job goes back for a retry", async () => {
    const schema = uniqueSchema();
    const boss = await start(schema);
    await boss.createQueue("render");
    const started = deferred<void>();
    const release = deferred<void>();
    const finished = deferred<void>();
    await boss.work("render", async () => {
      started.resolve();
      await release.promise;
      finished.resolve();
    });
    const id = await boss.send("render", { prompt: "stuck", seed: 6 });
    await started.promise;

    running.delete(boss);
    await stopBoss(boss, { timeoutMs: 1_000 });
    const row = await jobRow(schema, id as string);
    expect(row).toMatchObject({
      state: "retry",
      output: { value: "pg-boss shut down while active" },
    });
    // The handler ends after the stop: pg-boss's completion is dropped, not an error.
    release.resolve();
    await finished.promise;
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(await jobRow(schema, id as string)).toEqual(row);
  });

  it("uses the pgboss schema by default", async () => {
    schemas.push(BOSS_SCHEMA);
    const boss = await startBoss(testDb.database, {
      connectionString: testDb.url,
      onError: (error) => errors.push(error),
    });
    running.add(boss);
    const rows = await rowsOf(
      testDb.database,
      sql`select version from ${sql.identifier(BOSS_SCHEMA)}.version`,
    );
    expect(rows).toEqual([{ version: await boss.schemaVersion() }]);
  });

  describe.runIf(TEST_DB_KIND === "pglite")("sharing the app's PGlite", () => {
    it("rolls back a failed BEGIN…COMMIT from pg-boss so the app's session is not left aborted", async () => {
      const schema = uniqueSchema();
      const boss = await start(schema);
      await expect(
        boss
          .getDb()
          .executeSql(`BEGIN; CREATE TABLE ${schema}.half_done (x int); SELECT 1/0; COMMIT;`, []),
      ).rejects.toThrow("division by zero");
      const rows = await rowsOf(
        testDb.database,
        sql`select to_regclass(${`${schema}.half_done`}) as table`,
      );
      expect(rows).toEqual([{ table: null }]);
      expect(await testDb.database.ping()).toBe(true);
    });

    it("never runs pg-boss SQL inside a drizzle transaction: it waits for it to end", async () => {
      const schema = uniqueSchema();
      const boss = await start(schema);
      await boss.createQueue("render");
      let sent: Promise<string | null> | undefined;
      let settled = false;
      // Not awaited inside the transaction: that would deadlock on PGlite (see boss.ts).
      await expect(
        testDb.database.db.transaction(async (tx) => {
          sent = boss.send("render", { prompt: "outside", seed: 5 });
          void sent.then(() => {
            settled = true;
          });
          // PGlite serves queries first come, first served: had the send not been waiting for
          // the transaction, it would have run before these.
          for (let i = 0; i < 3; i += 1) await tx.execute(sql`select 1`);
          expect(settled).toBe(false);
          throw new Error("roll the transaction back");
        }),
      ).rejects.toThrow("roll the transaction back");
      // The send ran after the rollback, in a transaction of its own, so the job exists.
      const id = await sent;
      expect(id).toEqual(expect.any(String));
      expect((await jobRow(schema, id as string))?.state).toBe("created");
    });
  });
});
