import { createHash } from "node:crypto";
import { chunkBodies, VERSION_LIMITS } from "@atelier/core";
import { and, asc, eq, inArray, lt, ne, sql } from "drizzle-orm";
import type { AppDb } from "../../db/client.ts";
import type { WorkflowRecord } from "../../db/rows.ts";
import { workflowChunks, workflowVersionChunks, workflowVersions } from "../../db/schema.ts";
import { byteLength, chunkHeadText, partsOf, type WorkflowParts } from "./stored-form.ts";
import { versionsToDrop } from "./version-retention.ts";

/** Who made a version, and whether it brings an older one back. */
export interface VersionAuthor {
  authorId: string;
  restoredFrom?: number | undefined;
}

interface VersionDocument {
  head: string;
  hashes: string[];
}

const hashOf = (data: string) => createHash("sha1").update(data).digest("hex");

/**
 * A chunked row's document as version chunks: its live chunks are content-hashed already,
 * so only texts no version of this workflow holds yet are copied (inside the database).
 */
async function chunkedDocument(tx: AppDb, row: WorkflowRecord): Promise<VersionDocument> {
  const id = row.id;
  // Chunks written before content hashes existed get one now.
  await tx.execute(
    sql`update ${workflowChunks} set content_hash = 'md5-' || md5(data)
        where workflow_id = ${id} and content_hash is null`,
  );
  await tx.execute(sql`
    insert into ${workflowVersionChunks} (workflow_id, hash, chunk_type, data, size_bytes)
    select c.workflow_id, c.content_hash, c.chunk_type, c.data, c.size_bytes
    from ${workflowChunks} c
    where c.workflow_id = ${id} and c.chunk_type <> 'metadata'
      and not exists (select 1 from ${workflowVersionChunks} v
                      where v.workflow_id = ${id} and v.hash = c.content_hash)
    on conflict do nothing`);
  const chunks = await tx
    .select({ hash: workflowChunks.contentHash })
    .from(workflowChunks)
    .where(and(eq(workflowChunks.workflowId, id), ne(workflowChunks.chunkType, "metadata")))
    .orderBy(asc(workflowChunks.chunkIndex));
  let head = row.chunkHead;
  if (!head) {
    // The older layout keeps its metadata chunk at index 0.
    const [metadata] = await tx
      .select({ data: workflowChunks.data })
      .from(workflowChunks)
      .where(and(eq(workflowChunks.workflowId, id), eq(workflowChunks.chunkType, "metadata")));
    head = metadata?.data ?? "{}";
  }
  return { head, hashes: chunks.map((chunk) => chunk.hash as string) };
}

/**
 * A row stored whole, cut into chunks as chunked rows are, so versions share them; from the
 * texts the save encoded when given (no parse of megabytes on the save path).
 */
async function wholeDocument(
  tx: AppDb,
  row: WorkflowRecord,
  saved?: WorkflowParts,
): Promise<VersionDocument> {
  const parts = saved ?? partsOf(JSON.parse(row.data ?? "{}"), row.id);
  const bodies = chunkBodies(parts.nodes, parts.edges, { byteLength });
  const hashes = bodies.map((body) => hashOf(body.data));
  const sum = (items: { bytes: number }[]) => items.reduce((total, item) => total + item.bytes, 0);
  const head = chunkHeadText(
    parts.head,
    { nodes: parts.nodes.length, edges: parts.edges.length, chunks: bodies.length + 1 },
    { nodes: sum(parts.nodes), edges: sum(parts.edges) },
  );
  const held =
    hashes.length === 0
      ? []
      : await tx
          .select({ hash: workflowVersionChunks.hash })
          .from(workflowVersionChunks)
          .where(
            and(
              eq(workflowVersionChunks.workflowId, row.id),
              inArray(workflowVersionChunks.hash, hashes),
            ),
          );
  const known = new Set(held.map((chunk) => chunk.hash));
  const rows: (typeof workflowVersionChunks.$inferInsert)[] = [];
  bodies.forEach((body, index) => {
    const hash = hashes[index] as string;
    if (known.has(hash)) return;
    known.add(hash);
    const { chunk_type: chunkType, data, size_bytes: sizeBytes } = body;
    rows.push({ workflowId: row.id, hash, chunkType, data, sizeBytes });
  });
  if (rows.length > 0) await tx.insert(workflowVersionChunks).values(rows).onConflictDoNothing();
  return { head, hashes };
}

/**
 * Records the workflow as `row` (just written, in the caller's transaction) holds it as its
 * next version, then thins the old ones; `parts`: what the save encoded into `row`. Answers
 * the version's number.
 */
export async function recordVersion(
  tx: AppDb,
  row: WorkflowRecord,
  author: VersionAuthor,
  parts?: WorkflowParts,
): Promise<number> {
  const document = row.isChunked
    ? await chunkedDocument(tx, row)
    : await wholeDocument(tx, row, parts);
  const [last] = await tx
    .select({ seq: sql<number>`coalesce(max(${workflowVersions.seq}), 0)` })
    .from(workflowVersions)
    .where(eq(workflowVersions.workflowId, row.id));
  const seq = Number(last?.seq ?? 0) + 1;
  await tx.insert(workflowVersions).values({
    workflowId: row.id,
    seq,
    createdAt: row.updatedAt,
    authorId: author.authorId,
    restoredFrom: author.restoredFrom ?? null,
    head: document.head,
    chunkHashes: document.hashes,
    sizeBytes: row.dataSizeBytes,
  });
  await thinVersions(tx, row.id, row.updatedAt);
  return seq;
}

/** Drops the versions retention no longer keeps at `now`, and chunks no version holds. */
export async function thinVersions(tx: AppDb, workflowId: string, now: Date): Promise<number> {
  const old = await tx
    .select({
      seq: workflowVersions.seq,
      createdAt: workflowVersions.createdAt,
      name: workflowVersions.name,
    })
    .from(workflowVersions)
    .where(
      and(
        eq(workflowVersions.workflowId, workflowId),
        lt(workflowVersions.createdAt, new Date(now.getTime() - VERSION_LIMITS.keepAllMs)),
      ),
    );
  const drop = versionsToDrop(old, now);
  if (drop.length === 0) return 0;
  await tx
    .delete(workflowVersions)
    .where(and(eq(workflowVersions.workflowId, workflowId), inArray(workflowVersions.seq, drop)));
  await tx.execute(sql`
    delete from ${workflowVersionChunks} c
    where c.workflow_id = ${workflowId}
      and not exists (select 1 from ${workflowVersions} v
                      where v.workflow_id = ${workflowId} and c.hash = any(v.chunk_hashes))`);
  return drop.length;
}
