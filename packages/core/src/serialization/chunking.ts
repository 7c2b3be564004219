/**
 * Splitting a large saved workflow into rows of `workflow_chunks` and putting it back
 * (SPEC §3, §9): one metadata chunk, node chunks of at most 10 nodes, edge chunks, every
 * chunk at most 2 MB. A node too big for one chunk is carried in consecutive parts.
 */
import { LIMITS } from "../limits.ts";
import type { SavedEdge, SavedNode, SavedWorkflow } from "../schema/workflow.ts";
import { utf8ByteLength } from "./text.ts";

export const CHUNK_TYPES = ["nodes", "edges", "metadata"] as const;
export type ChunkType = (typeof CHUNK_TYPES)[number];

export interface WorkflowChunk {
  workflow_id: string | null;
  chunk_index: number;
  chunk_type: ChunkType;
  /**
   * JSON text: an array of saved nodes or edges, `{ part, text }` for one piece of a node
   * too large for a chunk, or `{ workflow, counts }` for the metadata chunk.
   */
  data: string;
  size_bytes: number;
}

export interface ChunkOptions {
  /** Defaults to `metadata.id` of the workflow. */
  workflowId?: string | null;
  maxChunkBytes?: number;
  nodesPerChunk?: number;
  /** UTF-8 size of a text; a server passes its native one (the default is plain JS). */
  byteLength?: (text: string) => number;
}

export const DATA_LOST_NODE_ID = "workflow-data-lost";
export const DATA_LOST_LABEL = "Error: Workflow Data Lost";
export const METADATA_CHUNK_NOT_FOUND = "Metadata chunk not found";

interface MetadataPayload {
  workflow: Omit<SavedWorkflow, "nodes" | "edges">;
  counts: { nodes: number; edges: number; chunks: number };
}
type NodePayload = SavedNode[] | { part: { index: number; count: number }; text: string };
type EdgePayload = SavedEdge[];

/** The brackets of a JSON array. */
const WRAPPER_BYTES = 2;

function chunk(
  workflowId: string | null,
  index: number,
  type: ChunkType,
  data: string,
  byteLength: (text: string) => number,
): WorkflowChunk {
  return {
    workflow_id: workflowId,
    chunk_index: index,
    chunk_type: type,
    data,
    size_bytes: byteLength(data),
  };
}

/** Cuts one node's JSON into parts whose chunk text stays within the limit. */
function nodeParts(text: string, maxBytes: number, byteLength: (text: string) => number) {
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    let length = Math.max(1, Math.floor(maxBytes / 2));
    for (;;) {
      const piece = text.slice(start, start + length);
      const size = byteLength(
        JSON.stringify({ part: { index: 999_999, count: 999_999 }, text: piece }),
      );
      if (size <= maxBytes || length === 1) break;
      length = Math.max(1, Math.floor(length / 2));
    }
    parts.push(text.slice(start, start + length));
    start += length;
  }
  return parts;
}

/** One node or edge as its JSON text (`JSON.stringify` of it), with its UTF-8 size. */
export interface ItemText {
  id: string;
  text: string;
  bytes: number;
}

/** A nodes or edges chunk before it gets an index; `nodeIds` are the nodes it starts. */
export interface ChunkBody {
  chunk_type: "nodes" | "edges";
  data: string;
  size_bytes: number;
  nodeIds: string[];
}

/** JSON text of an array whose elements are already JSON texts. */
const arrayText = (items: readonly ItemText[]) => `[${items.map((item) => item.text).join(",")}]`;

/**
 * The nodes and edges chunks of a workflow from the JSON texts of its nodes and edges, by
 * SPEC §9's rules (at most 10 nodes and 2 MB a chunk; a larger node in consecutive parts).
 * Working on texts lets a server chunk what it received without stringifying it again.
 */
export function chunkBodies(
  nodes: readonly ItemText[],
  edges: readonly ItemText[],
  options: Omit<ChunkOptions, "workflowId"> = {},
): ChunkBody[] {
  const maxBytes = options.maxChunkBytes ?? LIMITS.chunking.maxChunkBytes;
  const perChunk = options.nodesPerChunk ?? LIMITS.chunking.nodesPerChunk;
  const byteLength = options.byteLength ?? utf8ByteLength;
  const body: ChunkBody[] = [];
  const push = (type: ChunkBody["chunk_type"], data: string, nodeIds: string[]) =>
    body.push({ chunk_type: type, data, size_bytes: byteLength(data), nodeIds });

  let group: ItemText[] = [];
  let groupBytes = WRAPPER_BYTES;
  const flush = () => {
    if (group.length > 0)
      push(
        "nodes",
        arrayText(group),
        group.map((node) => node.id),
      );
    group = [];
    groupBytes = WRAPPER_BYTES;
  };
  for (const node of nodes) {
    const bytes = node.bytes + 1;
    if (WRAPPER_BYTES + bytes > maxBytes) {
      flush();
      const parts = nodeParts(node.text, maxBytes, byteLength);
      parts.forEach((piece, index) => {
        const payload = { part: { index, count: parts.length }, text: piece };
        push("nodes", JSON.stringify(payload), index === 0 ? [node.id] : []);
      });
      continue;
    }
    if (group.length >= perChunk || groupBytes + bytes > maxBytes) flush();
    group.push(node);
    groupBytes += bytes;
  }
  flush();

  let edgeGroup: ItemText[] = [];
  let edgeBytes = WRAPPER_BYTES;
  for (const edge of edges) {
    const bytes = edge.bytes + 1;
    if (edgeGroup.length > 0 && edgeBytes + bytes > maxBytes) {
      push("edges", arrayText(edgeGroup), []);
      edgeGroup = [];
      edgeBytes = WRAPPER_BYTES;
    }
    edgeGroup.push(edge);
    edgeBytes += bytes;
  }
  if (edgeGroup.length > 0) push("edges", arrayText(edgeGroup), []);
  return body;
}

/** The texts of nodes or edges, for `chunkBodies`. */
export function itemTexts(
  items: readonly { id: string }[],
  byteLength: (text: string) => number = utf8ByteLength,
): ItemText[] {
  return items.map((item) => {
    const text = JSON.stringify(item);
    return { id: item.id, text, bytes: byteLength(text) };
  });
}

/** The metadata chunk's text: everything but nodes and edges, and the counts to check on load. */
export function metadataChunkText(
  workflow: Omit<SavedWorkflow, "nodes" | "edges">,
  counts: { nodes: number; edges: number; chunks: number },
): string {
  return JSON.stringify({ workflow, counts } satisfies MetadataPayload);
}

export function chunkWorkflow(saved: SavedWorkflow, options: ChunkOptions = {}): WorkflowChunk[] {
  const byteLength = options.byteLength ?? utf8ByteLength;
  const body = chunkBodies(
    itemTexts(saved.nodes, byteLength),
    itemTexts(saved.edges, byteLength),
    options,
  );
  const { nodes: _nodes, edges: _edges, ...rest } = saved;
  const metadata = metadataChunkText(rest, {
    nodes: saved.nodes.length,
    edges: saved.edges.length,
    chunks: body.length + 1,
  });
  const workflowId = options.workflowId ?? saved.metadata?.id ?? null;
  return [
    chunk(workflowId, 0, "metadata", metadata, byteLength),
    ...body.map((entry, index) => ({
      workflow_id: workflowId,
      chunk_index: index + 1,
      chunk_type: entry.chunk_type,
      data: entry.data,
      size_bytes: entry.size_bytes,
    })),
  ];
}

/** The placeholder shown where chunks were lost (SPEC §4, §8). */
export function dataLostNode(missingNodes: number): SavedNode {
  return {
    id: DATA_LOST_NODE_ID,
    type: "notepad",
    position: { x: 0, y: 0 },
    data: {
      label: DATA_LOST_LABEL,
      status: "error",
      error: `${missingNodes} node(s) of this workflow could not be loaded.`,
      inputValues: {
        text: {
          value: `${DATA_LOST_LABEL}. ${missingNodes} node(s) could not be loaded from storage.`,
        },
      },
    },
    selected: false,
    dragging: false,
  };
}

/**
 * Reassembles chunks (in any order) into the saved workflow. Throws "Metadata chunk not
 * found" without the metadata chunk; when other chunks are lost, keeps what arrived, drops
 * edges to missing nodes and adds the "Error: Workflow Data Lost" placeholder node.
 */
export function assembleChunks(
  chunks: readonly Pick<WorkflowChunk, "chunk_index" | "chunk_type" | "data">[],
): SavedWorkflow {
  const sorted = [...chunks].sort((a, b) => a.chunk_index - b.chunk_index);
  const metadataChunk = sorted.find((entry) => entry.chunk_type === "metadata");
  if (!metadataChunk) throw new Error(METADATA_CHUNK_NOT_FOUND);
  const { workflow, counts } = JSON.parse(metadataChunk.data) as MetadataPayload;

  const nodes: SavedNode[] = [];
  const edges: SavedEdge[] = [];
  let parts: string[] = [];
  let expectedPart = 0;
  for (const entry of sorted) {
    if (entry.chunk_type === "nodes") {
      const payload = JSON.parse(entry.data) as NodePayload;
      if (Array.isArray(payload)) {
        nodes.push(...payload);
        continue;
      }
      if (payload.part.index !== expectedPart) {
        // A part went missing: the node it belonged to is lost.
        parts = [];
        expectedPart = 0;
        if (payload.part.index !== 0) continue;
      }
      parts.push(payload.text);
      expectedPart = payload.part.index + 1;
      if (expectedPart === payload.part.count) {
        nodes.push(JSON.parse(parts.join("")) as SavedNode);
        parts = [];
        expectedPart = 0;
      }
    } else if (entry.chunk_type === "edges") {
      edges.push(...(JSON.parse(entry.data) as EdgePayload));
    }
  }

  const lost =
    nodes.length < counts.nodes || edges.length < counts.edges || sorted.length < counts.chunks;
  if (!lost) return { ...workflow, nodes, edges };
  const ids = new Set(nodes.map((node) => node.id));
  const keptEdges = edges.filter((edge) => ids.has(edge.source) && ids.has(edge.target));
  return {
    ...workflow,
    nodes: [...nodes, dataLostNode(counts.nodes - nodes.length)],
    edges: keptEdges,
  };
}

/** A chunk for `assembleChunksText`; `nodes` is how many nodes an array chunk holds. */
export type TextChunk = Pick<WorkflowChunk, "chunk_index" | "chunk_type" | "data"> & {
  nodes?: number | null | undefined;
};

const LISTS_TAIL = '"nodes":[],"edges":[]}';
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The JSON text of `assembleChunks(chunks)` built from the chunk texts, as pieces to
 * concatenate: node arrays are spliced in unparsed (only edges, the metadata and split-node
 * parts are parsed), so a server answers a large workflow without a parse/stringify round
 * trip, and can encode the pieces straight into one buffer. Null whenever that is not
 * certain to give the same value — a lost chunk or part (the placeholder path), a nodes chunk
 * whose node count is unknown, anything unusual — and the caller assembles instead.
 */
export function assembleChunksPieces(chunks: readonly TextChunk[]): string[] | null {
  const sorted = [...chunks].sort((a, b) => a.chunk_index - b.chunk_index);
  const metadataChunk = sorted.find((entry) => entry.chunk_type === "metadata");
  if (!metadataChunk) return null;
  const { workflow, counts } = JSON.parse(metadataChunk.data) as Partial<MetadataPayload>;
  if (!isObject(workflow) || !isObject(counts)) return null;
  const { nodes: nodeTotal, edges: edgeTotal, chunks: chunkTotal } = counts;
  if (![nodeTotal, edgeTotal, chunkTotal].every((value) => typeof value === "number")) return null;
  if (sorted.length < chunkTotal) return null;
  // `{ ...workflow, nodes, edges }` puts the lists last unless the head already names them.
  const shell = JSON.stringify({ ...workflow, nodes: [], edges: [] });
  if (!shell.endsWith(LISTS_TAIL)) return null;

  const nodes: string[] = [];
  const edges: string[] = [];
  let nodeCount = 0;
  let edgeCount = 0;
  let parts: string[] = [];
  let expectedPart = 0;
  for (const entry of sorted) {
    const { data } = entry;
    if (entry.chunk_type === "nodes") {
      if (data.startsWith("[")) {
        const count = entry.nodes;
        if (typeof count !== "number" || !data.endsWith("]")) return null;
        const inner = data.slice(1, -1);
        if ((inner.length === 0) !== (count === 0)) return null;
        if (count > 0) nodes.push(inner);
        nodeCount += count;
        continue;
      }
      // One piece of a node too large for a chunk: the same bookkeeping as assembleChunks.
      const payload = JSON.parse(data) as unknown;
      if (!isObject(payload) || !isObject(payload.part) || typeof payload.text !== "string")
        return null;
      const { index, count } = payload.part;
      if (typeof index !== "number" || typeof count !== "number") return null;
      if (index !== expectedPart) {
        parts = [];
        expectedPart = 0;
        if (index !== 0) continue;
      }
      parts.push(payload.text);
      expectedPart = index + 1;
      if (expectedPart === count) {
        nodes.push(parts.join(""));
        nodeCount += 1;
        parts = [];
        expectedPart = 0;
      }
    } else if (entry.chunk_type === "edges") {
      // Edges are a small share of a workflow; parsing them gives their count exactly.
      const payload = JSON.parse(data) as unknown;
      if (!Array.isArray(payload) || !data.startsWith("[") || !data.endsWith("]")) return null;
      if (payload.length > 0) edges.push(data.slice(1, -1));
      edgeCount += payload.length;
    }
  }
  if (nodeCount < nodeTotal || edgeCount < edgeTotal) return null;
  const list = (items: string[]) => items.flatMap((item, at) => (at ? [",", item] : [item]));
  const open = shell.slice(0, -LISTS_TAIL.length);
  return [open, '"nodes":[', ...list(nodes), '],"edges":[', ...list(edges), "]}"];
}

/** `assembleChunksPieces` as one text. */
export function assembleChunksText(chunks: readonly TextChunk[]): string | null {
  return assembleChunksPieces(chunks)?.join("") ?? null;
}
