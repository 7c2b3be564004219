import {
  assembleChunks,
  type ChunkBody,
  chunkBodies,
  type ItemText,
  itemTexts,
  type SavedWorkflow,
  saveStrategy,
  type TextChunk,
} from "@atelier/core";
import { asc, eq } from "drizzle-orm";
import type { AppDb } from "../../db/client.ts";
import { workflowChunks, type workflows } from "../../db/schema.ts";

/** Everything of a saved workflow but its nodes and edges (the metadata chunk's `workflow`). */
export type WorkflowHead = Omit<SavedWorkflow, "nodes" | "edges">;

/**
 * A workflow as saves handle it: the small head parsed, nodes and edges as their JSON texts,
 * so megabytes of nodes are stringified once (or never, when they arrive staged) and not
 * parsed or stringified again on their way into chunks.
 */
export interface WorkflowParts {
  head: WorkflowHead;
  nodes: ItemText[];
  edges: ItemText[];
}

/** The stored form: whole JSON in `workflows.data`, or chunk bodies plus the head text. */
export interface StoredForm {
  /** What it was encoded from (a version of a row stored whole is cut from these). */
  parts: WorkflowParts;
  bytes: number;
  chunked: boolean;
  json: string | null;
  head: string | null;
  bodies: ChunkBody[];
}

/** The metadata chunk kept on the row; `bytes` lets a delta save size the document. */
export interface ChunkHead {
  workflow: WorkflowHead;
  counts: { nodes: number; edges: number; chunks: number };
  bytes: { nodes: number; edges: number };
}

export const byteLength = (text: string) => Buffer.byteLength(text, "utf8");

/** Row columns of a stored form. */
export function storedColumns(stored: StoredForm) {
  return {
    data: stored.json,
    isChunked: stored.chunked,
    chunkHead: stored.head,
    chunkCount: stored.bodies.length,
    dataSizeBytes: stored.bytes,
  };
}

/** The texts of a parsed workflow, with its metadata naming row `id`. */
export function partsOf(data: SavedWorkflow, id: string): WorkflowParts {
  const { nodes, edges, ...head } = data;
  return {
    head: { ...head, metadata: { ...head.metadata, id } },
    nodes: itemTexts(nodes, byteLength),
    edges: itemTexts(edges, byteLength),
  };
}

const EMPTY_LISTS = '"nodes":[],"edges":[]}';
const sum = (items: readonly ItemText[]) => items.reduce((total, item) => total + item.bytes, 0);
/** Bytes of the texts of a JSON array's elements and the commas between them. */
const listBytes = (count: number, bytes: number) => bytes + Math.max(0, count - 1);

/** UTF-8 size of `JSON.stringify(document)`, from its parts. */
export function documentBytes(
  head: WorkflowHead,
  nodes: { count: number; bytes: number },
  edges: { count: number; bytes: number },
): number {
  const shell = byteLength(JSON.stringify({ ...head, nodes: [], edges: [] }));
  return shell + listBytes(nodes.count, nodes.bytes) + listBytes(edges.count, edges.bytes);
}

/** The text of the chunk head kept on the row. */
export function chunkHeadText(
  head: WorkflowHead,
  counts: ChunkHead["counts"],
  bytes: ChunkHead["bytes"],
): string {
  return JSON.stringify({ workflow: head, counts, bytes } satisfies ChunkHead);
}

/** How a workflow is stored: whole up to 5 MB, in chunks above (SPEC §9). */
export function encodeWorkflow(parts: WorkflowParts): StoredForm {
  const nodeBytes = sum(parts.nodes);
  const edgeBytes = sum(parts.edges);
  const bytes = documentBytes(
    parts.head,
    { count: parts.nodes.length, bytes: nodeBytes },
    { count: parts.edges.length, bytes: edgeBytes },
  );
  if (saveStrategy(bytes) !== "chunked") {
    // The same text JSON.stringify would give, without stringifying the nodes again.
    const shell = JSON.stringify({ ...parts.head, nodes: [], edges: [] });
    const json = `${shell.slice(0, -EMPTY_LISTS.length)}"nodes":[${parts.nodes
      .map((node) => node.text)
      .join(",")}],"edges":[${parts.edges.map((edge) => edge.text).join(",")}]}`;
    return { parts, bytes, chunked: false, json, head: null, bodies: [] };
  }
  const bodies = chunkBodies(parts.nodes, parts.edges, { byteLength });
  const head = chunkHeadText(
    parts.head,
    { nodes: parts.nodes.length, edges: parts.edges.length, chunks: bodies.length + 1 },
    { nodes: nodeBytes, edges: edgeBytes },
  );
  return { parts, bytes, chunked: true, json: null, head, bodies };
}

type StoredRow = Pick<typeof workflows.$inferSelect, "id" | "data" | "isChunked" | "chunkHead">;

/**
 * A chunked row's chunks in order, the head on the row first as the metadata chunk; `nodes`
 * counts an array chunk's nodes (from its ids; unknown for chunks written before them).
 */
export async function readChunkRows(db: AppDb, row: StoredRow): Promise<TextChunk[]> {
  const chunks = await db
    .select({
      chunkIndex: workflowChunks.chunkIndex,
      chunkType: workflowChunks.chunkType,
      data: workflowChunks.data,
      nodeIds: workflowChunks.nodeIds,
    })
    .from(workflowChunks)
    .where(eq(workflowChunks.workflowId, row.id))
    .orderBy(asc(workflowChunks.chunkIndex));
  const rows: TextChunk[] = chunks.map((chunk) => ({
    chunk_index: chunk.chunkIndex,
    chunk_type: chunk.chunkType,
    data: chunk.data,
    nodes: chunk.nodeIds?.length ?? null,
  }));
  // Rows chunked before the head moved onto the row keep their metadata chunk at index 0.
  if (row.chunkHead) rows.unshift({ chunk_index: 0, chunk_type: "metadata", data: row.chunkHead });
  return rows;
}

/** A row's saved workflow: its `data` column, or its chunks put back together. */
export async function readWorkflowData(db: AppDb, row: StoredRow): Promise<SavedWorkflow | null> {
  if (!row.isChunked) return row.data ? (JSON.parse(row.data) as SavedWorkflow) : null;
  return assembleChunks(await readChunkRows(db, row));
}
