import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  assembleChunks,
  assembleChunksPieces,
  assembleChunksText,
  chunkWorkflow,
  type SavedWorkflow,
  serializeWorkflow,
  type TextChunk,
  type WorkflowChunk,
} from "../src/index.ts";
import { chunkedWorkflow } from "./arbitraries.ts";

/** `count` nodes of `payloadChars` characters each, chained by edges. */
function workflow(count: number, payloadChars: number): SavedWorkflow {
  const nodes = Array.from({ length: count }, (_, index) => ({
    id: `n${index}`,
    type: "flux-pro",
    position: { x: index, y: 0 },
    data: {
      label: `Node ${index}`,
      inputValues: { prompt: { value: "é\n".repeat(payloadChars) } },
    },
  }));
  const edges = nodes
    .slice(1)
    .map((node, index) => ({ id: `e${index}`, source: `n${index}`, target: node.id }));
  return serializeWorkflow({ nodes, edges, metadata: { name: "Chunks" } }, { now: 1 });
}

/** The node count a server keeps beside each array chunk (its node ids). */
const counted = (chunks: readonly WorkflowChunk[]): TextChunk[] =>
  chunks.map((chunk) => {
    const payload = JSON.parse(chunk.data) as unknown;
    return {
      ...chunk,
      nodes: chunk.chunk_type === "nodes" && Array.isArray(payload) ? payload.length : null,
    };
  });

/** The text must be exactly what stringifying the assembled workflow gives. */
function expectSameAsAssembled(chunks: readonly TextChunk[]) {
  const text = assembleChunksText(chunks);
  expect(text).not.toBeNull();
  expect(text).toBe(JSON.stringify(assembleChunks(chunks)));
  expect(JSON.parse(text as string)).toEqual(assembleChunks(chunks));
}

describe("assembleChunksText", () => {
  it("gives the assembled workflow's JSON, in any chunk order", () => {
    const chunks = counted(chunkWorkflow(workflow(30, 200), { maxChunkBytes: 4000 }));
    expectSameAsAssembled(chunks);
    expectSameAsAssembled([...chunks].reverse());
    expect(assembleChunksPieces(chunks)?.join("")).toBe(assembleChunksText(chunks));
  });

  it("puts nodes cut into parts back, and takes the server's head with its byte sizes", () => {
    const chunks = counted(chunkWorkflow(workflow(3, 3000), { maxChunkBytes: 2000 }));
    expect(chunks.some((chunk) => chunk.data.startsWith('{"part"'))).toBe(true);
    expectSameAsAssembled(chunks);
    const [metadata, ...rest] = chunks;
    const head = { ...JSON.parse(metadata?.data ?? "{}"), bytes: { nodes: 1, edges: 1 } };
    expectSameAsAssembled([{ ...(metadata as TextChunk), data: JSON.stringify(head) }, ...rest]);
  });

  it("handles a workflow without nodes or edges", () => {
    expectSameAsAssembled(counted(chunkWorkflow(workflow(0, 1))));
    expectSameAsAssembled(counted(chunkWorkflow(workflow(1, 1))));
  });

  it("declines (null) where assembling adds the data-lost placeholder", () => {
    const chunks = counted(chunkWorkflow(workflow(30, 200), { maxChunkBytes: 4000 }));
    expect(assembleChunksText(chunks.filter((chunk) => chunk.chunk_index !== 2))).toBeNull();
    const edgesLost = chunks.filter((chunk) => chunk.chunk_type !== "edges");
    expect(assembleChunksText(edgesLost)).toBeNull();
    const split = counted(chunkWorkflow(workflow(3, 3000), { maxChunkBytes: 2000 }));
    const partIndex = split.findIndex((chunk) => chunk.data.startsWith('{"part":{"index":1'));
    expect(assembleChunksText(split.filter((_, at) => at !== partIndex))).toBeNull();
  });

  it("declines without node counts, metadata or counts", () => {
    const chunks = chunkWorkflow(workflow(12, 20));
    expect(assembleChunksText(chunks)).toBeNull();
    const withCounts = counted(chunks);
    expect(assembleChunksText(withCounts.filter((c) => c.chunk_type !== "metadata"))).toBeNull();
    const noCounts = withCounts.map((chunk) =>
      chunk.chunk_type === "metadata"
        ? { ...chunk, data: JSON.stringify({ workflow: JSON.parse(chunk.data).workflow }) }
        : chunk,
    );
    expect(assembleChunksText(noCounts)).toBeNull();
  });

  it("matches assembleChunks for any workflow and chunk limit", () => {
    fc.assert(
      fc.property(chunkedWorkflow(30), ({ saved, maxChunkBytes }) => {
        expectSameAsAssembled(counted(chunkWorkflow(saved, { maxChunkBytes })));
      }),
      { numRuns: 100 },
    );
  });
});
