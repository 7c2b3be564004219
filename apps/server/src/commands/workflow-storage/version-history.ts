import {
  assembleChunks,
  type SavedWorkflow,
  VERSION_LIMITS,
  VERSION_MESSAGES,
  type VersionSummary,
} from "@atelier/core";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { AppDb } from "../../db/client.ts";
import { user, workflows, workflowVersionChunks, workflowVersions } from "../../db/schema.ts";
import { NotFoundError } from "../../domain/errors.ts";
import { type SaveResult, saveWorkflow } from "./full-save.ts";
import { partsOf } from "./stored-form.ts";

/** A version as the history lists it. */
export interface VersionListing {
  seq: number;
  createdAt: Date;
  name: string | null;
  author: string | null;
  restoredFrom: number | null;
  summary: VersionSummary;
}

type VersionRow = typeof workflowVersions.$inferSelect;
type ChunkText = { hash: string; chunkType: "nodes" | "edges"; data: string };

const VERSION_NOT_FOUND = () => new NotFoundError(VERSION_MESSAGES.notFound);

async function chunkTexts(db: AppDb, workflowId: string, hashes: readonly string[]) {
  if (hashes.length === 0) return new Map<string, ChunkText>();
  const rows = await db
    .select({
      hash: workflowVersionChunks.hash,
      chunkType: workflowVersionChunks.chunkType,
      data: workflowVersionChunks.data,
    })
    .from(workflowVersionChunks)
    .where(
      and(
        eq(workflowVersionChunks.workflowId, workflowId),
        inArray(workflowVersionChunks.hash, [...new Set(hashes)]),
      ),
    );
  return new Map(rows.map((row) => [row.hash, row]));
}

/** A version's document, put together from its head and chunks. */
async function assemble(db: AppDb, version: VersionRow): Promise<SavedWorkflow> {
  const texts = await chunkTexts(db, version.workflowId, version.chunkHashes);
  return assembleChunks([
    { chunk_index: 0, chunk_type: "metadata", data: version.head },
    ...version.chunkHashes.flatMap((hash, index) => {
      const chunk = texts.get(hash);
      return chunk
        ? [{ chunk_index: index + 1, chunk_type: chunk.chunkType, data: chunk.data }]
        : [];
    }),
  ]);
}

/** Node texts by id of the nodes chunks given; null when one holds a part of a split node. */
function nodesOf(chunks: readonly ChunkText[]): Map<string, string> | null {
  const nodes = new Map<string, string>();
  for (const chunk of chunks) {
    if (chunk.chunkType !== "nodes") continue;
    const payload = JSON.parse(chunk.data) as unknown;
    if (!Array.isArray(payload)) return null;
    for (const node of payload as { id: string }[]) nodes.set(node.id, JSON.stringify(node));
  }
  return nodes;
}

/** Counts nodes that differ between two lists of node texts by id. */
function compare(before: Map<string, string>, after: Map<string, string>): VersionSummary {
  const summary = { added: 0, removed: 0, changed: 0 };
  for (const [id, text] of after) {
    const old = before.get(id);
    if (old === undefined) summary.added += 1;
    else if (old !== text) summary.changed += 1;
  }
  for (const id of before.keys()) if (!after.has(id)) summary.removed += 1;
  return summary;
}

const nodeTexts = (document: SavedWorkflow) =>
  new Map(document.nodes.map((node) => [node.id, JSON.stringify(node)]));

/**
 * What `version` changed since `base` (or, the first, what it holds): only the chunks one has
 * and the other has not are read, so a one-prompt edit of a large workflow reads two chunks.
 */
async function summarize(db: AppDb, version: VersionRow, base: VersionRow | null) {
  if (!base) {
    const head = JSON.parse(version.head) as { counts?: { nodes?: number } };
    return { added: head.counts?.nodes ?? 0, removed: 0, changed: 0 };
  }
  const shared = new Set(base.chunkHashes.filter((hash) => version.chunkHashes.includes(hash)));
  const onlyBefore = base.chunkHashes.filter((hash) => !shared.has(hash));
  const onlyAfter = version.chunkHashes.filter((hash) => !shared.has(hash));
  const texts = await chunkTexts(db, version.workflowId, [...onlyBefore, ...onlyAfter]);
  const pick = (hashes: string[]) => hashes.flatMap((hash) => texts.get(hash) ?? []);
  const before = nodesOf(pick(onlyBefore));
  const after = nodesOf(pick(onlyAfter));
  if (before && after) return compare(before, after);
  // A split node: compare the whole documents.
  return compare(nodeTexts(await assemble(db, base)), nodeTexts(await assemble(db, version)));
}

/**
 * The workflow's versions, newest first (at most 200). Summaries are worked out on first
 * listing and kept, against the version listed before each; thinning changes that neighbour,
 * so a summary made against another is made again.
 */
export async function listVersions(db: AppDb, workflowId: string): Promise<VersionListing[]> {
  const rows = await db
    .select({ version: workflowVersions, author: user.name })
    .from(workflowVersions)
    .leftJoin(user, eq(user.id, workflowVersions.authorId))
    .where(eq(workflowVersions.workflowId, workflowId))
    .orderBy(desc(workflowVersions.seq))
    .limit(VERSION_LIMITS.listLimit + 1);
  const listed = rows.slice(0, VERSION_LIMITS.listLimit);
  const out: VersionListing[] = [];
  for (const [index, { version, author }] of listed.entries()) {
    const base = rows[index + 1]?.version ?? null;
    let summary = version.summary;
    if (!summary || version.summaryBase !== (base?.seq ?? null)) {
      summary = await summarize(db, version, base);
      await db
        .update(workflowVersions)
        .set({ summary, summaryBase: base?.seq ?? null })
        .where(
          and(eq(workflowVersions.workflowId, workflowId), eq(workflowVersions.seq, version.seq)),
        );
    }
    out.push({
      seq: version.seq,
      createdAt: version.createdAt,
      name: version.name,
      author,
      restoredFrom: version.restoredFrom,
      summary,
    });
  }
  return out;
}

async function versionRow(db: AppDb, workflowId: string, seq: number) {
  const [row] = await db
    .select({ version: workflowVersions, author: user.name })
    .from(workflowVersions)
    .leftJoin(user, eq(user.id, workflowVersions.authorId))
    .where(and(eq(workflowVersions.workflowId, workflowId), eq(workflowVersions.seq, seq)));
  if (!row) throw VERSION_NOT_FOUND();
  return row;
}

/** One version with its document. */
export async function readVersion(db: AppDb, workflowId: string, seq: number) {
  const { version, author } = await versionRow(db, workflowId, seq);
  return { version, author, data: await assemble(db, version) };
}

/** Names a version (kept until unnamed) or takes its name away. */
export async function nameVersion(
  db: AppDb,
  workflowId: string,
  seq: number,
  name: string | null,
): Promise<void> {
  const named = await db
    .update(workflowVersions)
    .set({ name })
    .where(and(eq(workflowVersions.workflowId, workflowId), eq(workflowVersions.seq, seq)))
    .returning({ seq: workflowVersions.seq });
  if (named.length === 0) throw VERSION_NOT_FOUND();
}

/**
 * Brings version `seq` back as the workflow's newest version (a save over whatever is there
 * now, by `authorId`), so restoring an older one again undoes it.
 */
export async function restoreVersion(
  db: AppDb,
  owner: { ownerId: string; authorId: string },
  workflowId: string,
  seq: number,
): Promise<SaveResult & { data: SavedWorkflow }> {
  const { data } = await readVersion(db, workflowId, seq);
  const [current] = await db
    .select({ name: workflows.name, updatedAt: workflows.updatedAt })
    .from(workflows)
    .where(and(eq(workflows.id, workflowId), eq(workflows.userId, owner.ownerId)));
  if (!current) throw VERSION_NOT_FOUND();
  const name =
    typeof data.metadata.name === "string" && data.metadata.name
      ? data.metadata.name
      : current.name;
  const saved = await saveWorkflow(db, owner.ownerId, workflowId, {
    name,
    basedOn: current.updatedAt.toISOString(),
    parts: partsOf(data, workflowId),
    author: { authorId: owner.authorId, restoredFrom: seq },
  });
  return { ...saved, data };
}
