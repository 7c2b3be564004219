import { chunkBodies, type ItemText, LIMITS, type SavedEdge, saveStrategy } from "@atelier/core";
import { and, eq, inArray } from "drizzle-orm";
import type { AppDb } from "../../db/client.ts";
import { workflowChunks, type workflows } from "../../db/schema.ts";
import { chunkDirectory, type PlacedChunk } from "./chunk-rows.ts";
import { refuseTooLarge } from "./full-save.ts";
import {
  byteLength,
  type ChunkHead,
  chunkHeadText,
  documentBytes,
  type WorkflowHead,
} from "./stored-form.ts";
import { checkWithCheckedNodes } from "./structure-checks.ts";

export interface Delta {
  head: WorkflowHead;
  changed: ItemText[];
  removed: ReadonlySet<string>;
  edges: { items: ItemText[]; parsed: SavedEdge[] } | null;
}

/** What a delta does to a chunked workflow's rows, and the row columns after it. */
export interface InPlacePlan {
  remove: number[];
  add: PlacedChunk[];
  columns: {
    data: null;
    isChunked: true;
    chunkHead: string;
    chunkCount: number;
    dataSizeBytes: number;
  };
}

/** The byte rule chunking uses: brackets plus each node and its comma. */
const fits = (items: readonly ItemText[]) =>
  items.length <= LIMITS.chunking.nodesPerChunk &&
  items.reduce((total, item) => total + item.bytes + 1, 2) <= LIMITS.chunking.maxChunkBytes;

const arrayText = (items: readonly ItemText[]) => `[${items.map((item) => item.text).join(",")}]`;

/**
 * Applies a delta to only the chunks holding the nodes it names (new nodes go into the last
 * nodes chunk while it has room, then into new chunks). Null when the delta does not fit that
 * way — a row stored whole or in the older layout, a node cut into parts, a chunk over its
 * limits, a document back under 5 MB — and the caller rewrites the whole document instead.
 */
export async function planInPlace(
  tx: AppDb,
  row: typeof workflows.$inferSelect,
  delta: Delta,
): Promise<InPlacePlan | null> {
  if (!row.isChunked || !row.chunkHead) return null;
  const current = JSON.parse(row.chunkHead) as Partial<ChunkHead>;
  if (!current.counts || !current.bytes) return null;
  const directory = (await chunkDirectory(tx, row.id)).sort((a, b) => a.chunkIndex - b.chunkIndex);
  const nodeChunks = directory.filter((chunk) => chunk.chunkType === "nodes");
  if (nodeChunks.some((chunk) => !chunk.nodeIds)) return null;

  const holders = new Map<string, number[]>();
  for (const chunk of nodeChunks)
    for (const id of chunk.nodeIds ?? [])
      holders.set(id, [...(holders.get(id) ?? []), chunk.chunkIndex]);
  const touched = new Set<number>();
  for (const id of [...delta.changed.map((node) => node.id), ...delta.removed])
    for (const index of holders.get(id) ?? []) touched.add(index);
  const added = delta.changed.filter((node) => !holders.has(node.id));
  const last = nodeChunks.at(-1)?.chunkIndex;
  if (added.length > 0 && last !== undefined) touched.add(last);

  const read =
    touched.size === 0
      ? []
      : await tx
          .select({ chunkIndex: workflowChunks.chunkIndex, data: workflowChunks.data })
          .from(workflowChunks)
          .where(
            and(
              eq(workflowChunks.workflowId, row.id),
              inArray(workflowChunks.chunkIndex, [...touched]),
            ),
          );
  const replacement = new Map(delta.changed.map((node) => [node.id, node]));
  let nodeBytes = current.bytes.nodes;
  let nodeCount = current.counts.nodes;
  const remove: number[] = [];
  const add: PlacedChunk[] = [];
  let lastItems: ItemText[] | null = null;
  for (const chunk of read.sort((a, b) => a.chunkIndex - b.chunkIndex)) {
    const payload = JSON.parse(chunk.data) as unknown;
    if (!Array.isArray(payload)) return null;
    const items: ItemText[] = [];
    for (const node of payload as { id: string }[]) {
      const text = JSON.stringify(node);
      const bytes = byteLength(text);
      const next = replacement.get(node.id);
      if (delta.removed.has(node.id)) {
        nodeBytes -= bytes;
        nodeCount -= 1;
      } else if (next) {
        nodeBytes += next.bytes - bytes;
        items.push(next);
      } else items.push({ id: node.id, text, bytes });
    }
    if (chunk.chunkIndex === last) {
      lastItems = items;
      continue;
    }
    if (!fits(items)) return null;
    place(chunk.chunkIndex, chunk.data, items, remove, add);
  }

  // New nodes fill the last nodes chunk, then new chunks after every existing row.
  let nextIndex = (directory.at(-1)?.chunkIndex ?? 0) + 1;
  const overflow: ItemText[] = [];
  for (const node of added) {
    if (lastItems && overflow.length === 0 && fits([...lastItems, node])) lastItems.push(node);
    else overflow.push(node);
    nodeBytes += node.bytes;
    nodeCount += 1;
  }
  if (lastItems) {
    if (!fits(lastItems)) return null;
    const old = read.find((chunk) => chunk.chunkIndex === last);
    place(last as number, old?.data ?? "", lastItems, remove, add);
  }
  for (const body of chunkBodies(overflow, [], { byteLength })) {
    if (body.nodeIds.length === 0 || !body.data.startsWith("[")) return null;
    add.push({ index: nextIndex++, body });
  }

  // Edges, when sent, replace every edge chunk; kept edges must not lose an end.
  const finalIds = [
    ...[...holders.keys()].filter((id) => !delta.removed.has(id)),
    ...added.map((node) => node.id),
  ];
  let edgeCount = current.counts.edges;
  let edgeBytes = current.bytes.edges;
  if (delta.edges) {
    for (const chunk of directory) if (chunk.chunkType === "edges") remove.push(chunk.chunkIndex);
    for (const body of chunkBodies([], delta.edges.items, { byteLength }))
      add.push({ index: nextIndex++, body });
    edgeCount = delta.edges.items.length;
    edgeBytes = delta.edges.items.reduce((total, edge) => total + edge.bytes, 0);
  }
  const edges =
    delta.edges?.parsed ?? (delta.removed.size > 0 ? await storedEdges(tx, row.id) : []);
  checkWithCheckedNodes({ ...delta.head, edges }, finalIds);

  const bytes = documentBytes(
    delta.head,
    { count: nodeCount, bytes: nodeBytes },
    { count: edgeCount, bytes: edgeBytes },
  );
  refuseTooLarge(bytes);
  if (saveStrategy(bytes) !== "chunked") return null;
  const chunkCount = directory.length - remove.length + add.length;
  const chunkHead = chunkHeadText(
    delta.head,
    { nodes: nodeCount, edges: edgeCount, chunks: chunkCount + 1 },
    { nodes: nodeBytes, edges: edgeBytes },
  );
  return {
    remove,
    add,
    columns: { data: null, isChunked: true, chunkHead, chunkCount, dataSizeBytes: bytes },
  };
}

/** Rewrites a chunk whose text changed, or drops it when it is left empty. */
function place(
  index: number,
  oldText: string,
  items: readonly ItemText[],
  remove: number[],
  add: PlacedChunk[],
): void {
  const data = arrayText(items);
  if (data === oldText) return;
  remove.push(index);
  if (items.length === 0) return;
  const nodeIds = items.map((item) => item.id);
  add.push({ index, body: { chunk_type: "nodes", data, size_bytes: byteLength(data), nodeIds } });
}

async function storedEdges(tx: AppDb, workflowId: string): Promise<SavedEdge[]> {
  const rows = await tx
    .select({ chunkIndex: workflowChunks.chunkIndex, data: workflowChunks.data })
    .from(workflowChunks)
    .where(and(eq(workflowChunks.workflowId, workflowId), eq(workflowChunks.chunkType, "edges")));
  return rows
    .sort((a, b) => a.chunkIndex - b.chunkIndex)
    .flatMap((chunk) => JSON.parse(chunk.data) as SavedEdge[]);
}
