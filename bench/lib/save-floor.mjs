import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";

/**
 * S1's floor: what any save of the same workflow costs before the server's own work — the
 * database rewriting its chunk rows (deleted and inserted again in one transaction, as a
 * save does, with no HTTP and no parsing) plus one JSON.parse of its bytes. `measure()` times
 * one of each (alternating `versions`, so every write changes every row; the first call
 * after opening is a warm-up write); the floor of a save is their sum. `close()` drops it.
 */
export async function saveFloor({ db, databaseUrl, versions }) {
  const rowsOf = versions.map(chunkRows);
  const texts = versions.map((version) => JSON.stringify(version));
  const database = db === "postgres" ? await postgresTable(databaseUrl) : await pgliteTable();
  let writes = 0;
  try {
    await database.rewrite(rowsOf[writes++ % rowsOf.length]);
  } catch (error) {
    await database.close();
    throw error;
  }
  return {
    async measure() {
      const index = writes++ % rowsOf.length;
      const began = performance.now();
      await database.rewrite(rowsOf[index]);
      const dbWriteMs = performance.now() - began;
      const parsing = performance.now();
      JSON.parse(texts[index]);
      const parseMs = performance.now() - parsing;
      return { dbWriteMs, parseMs, ms: dbWriteMs + parseMs };
    },
    close: () => database.close(),
  };
}

/** The chunk rows a save writes: 10 nodes a chunk, their text, size, hash and ids. */
function chunkRows(data) {
  const rows = [];
  for (let at = 0; at < data.nodes.length; at += 10) {
    const nodes = data.nodes.slice(at, at + 10);
    const text = JSON.stringify(nodes);
    rows.push([
      "floor",
      rows.length + 1,
      "nodes",
      text,
      Buffer.byteLength(text),
      createHash("sha1").update(text).digest("hex"),
      nodes.map((node) => node.id),
    ]);
  }
  return rows;
}

const COLUMNS = "workflow_id, chunk_index, chunk_type, data, size_bytes, content_hash, node_ids";
const insertSql = (count) =>
  `insert into bench_floor_chunks (${COLUMNS}) values ${Array.from(
    { length: count },
    (_, row) => `(${Array.from({ length: 7 }, (_, col) => `$${row * 7 + col + 1}`).join(", ")})`,
  ).join(", ")}`;

/** Delete, then insert in two halves, as the server's rewriteChunks does. */
async function rewriteIn(query, rows) {
  await query("delete from bench_floor_chunks where workflow_id = 'floor'");
  const half = Math.ceil(rows.length / 2);
  for (const part of [rows.slice(0, half), rows.slice(half)])
    if (part.length > 0) await query(insertSql(part.length), part.flat());
}

/** A table like workflow_chunks (storage and compression included) in the server's database. */
async function postgresTable(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("drop table if exists bench_floor_chunks");
  await client.query("create table bench_floor_chunks (like workflow_chunks including all)");
  const query = (sql, params) => client.query(sql, params);
  return {
    async rewrite(rows) {
      await query("begin");
      try {
        await rewriteIn(query, rows);
        await query("commit");
      } catch (error) {
        await query("rollback");
        throw error;
      }
    },
    async close() {
      try {
        await query("drop table if exists bench_floor_chunks");
      } finally {
        await client.end();
      }
    },
  };
}

/** PGlite on disk, as the server keeps it, with workflow_chunks' columns and storage. */
async function pgliteTable() {
  const { PGlite } = await import("@electric-sql/pglite");
  const dir = mkdtempSync(join(tmpdir(), "atelier-bench-floor-"));
  const lite = new PGlite(dir);
  await lite.exec(`create table bench_floor_chunks (
    workflow_id text not null, chunk_index integer not null, chunk_type text not null,
    data text not null, size_bytes integer not null, content_hash text, node_ids text[],
    primary key (workflow_id, chunk_index));
    alter table bench_floor_chunks alter column data set storage external;`);
  return {
    rewrite: (rows) =>
      lite.transaction((tx) => rewriteIn((sql, params) => tx.query(sql, params), rows)),
    async close() {
      await lite.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
