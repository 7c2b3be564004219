import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  assembleChunks,
  chunkWorkflow,
  DATA_LOST_LABEL,
  LIMITS,
  type SavedWorkflow,
  serializeWorkflow,
  utf8ByteLength,
  zSavedWorkflow,
} from "../src/index.ts";
import { chunkedWorkflow } from "./arbitraries.ts";

const MB = 1024 * 1024;

/** A saved workflow of `count` nodes, each carrying `payloadChars` characters of prompt. */
function bigWorkflow(count: number, payloadChars: number): SavedWorkflow {
  const nodes = Array.from({ length: count }, (_, index) => ({
    id: `n${index}`,
    type: "flux-pro",
    position: { x: index * 10, y: 0 },
    data: { label: `Node ${index}`, inputValues: { prompt: { value: "ü".repeat(payloadChars) } } },
  }));
  const edges = nodes
    .slice(1)
    .map((node, index) => ({ id: `e${index}`, source: `n${index}`, target: node.id }));
  return serializeWorkflow({ nodes, edges, metadata: { name: "Big" } }, { now: 1 });
}

describe("chunkWorkflow / assembleChunks", () => {
  it("chunks a 6 MB workflow into a metadata chunk and node/edge chunks of ≤ 2 MB and ≤ 10 nodes", () => {
    const saved = bigWorkflow(60, 53_000);
    expect(utf8ByteLength(JSON.stringify(saved))).toBeGreaterThan(6 * MB);
    const chunks = chunkWorkflow(saved);
    expect(chunks[0]?.chunk_type).toBe("metadata");
    expect(
      chunkWorkflow(saved, { workflowId: "w1" }).every((chunk) => chunk.workflow_id === "w1"),
    ).toBe(true);
    expect(chunks.map((chunk) => chunk.chunk_index)).toEqual(chunks.map((_, index) => index));
    for (const chunk of chunks) {
      expect(chunk.size_bytes).toBe(utf8ByteLength(chunk.data));
      expect(chunk.size_bytes).toBeLessThanOrEqual(LIMITS.chunking.maxChunkBytes);
      if (chunk.chunk_type === "nodes")
        expect(JSON.parse(chunk.data).length).toBeLessThanOrEqual(10);
    }
    expect(new Set(chunks.map((chunk) => chunk.chunk_type))).toEqual(
      new Set(["metadata", "nodes", "edges"]),
    );
    expect(assembleChunks(chunks)).toEqual(saved);
  });

  it("splits a node larger than one chunk into parts and puts it back whole", () => {
    const saved = bigWorkflow(3, 1_500_000);
    const chunks = chunkWorkflow(saved);
    for (const chunk of chunks) expect(chunk.size_bytes).toBeLessThanOrEqual(2 * MB);
    expect(
      chunks.some(
        (chunk) => chunk.chunk_type === "nodes" && !Array.isArray(JSON.parse(chunk.data)),
      ),
    ).toBe(true);
    expect(assembleChunks([...chunks].reverse())).toEqual(saved);
  });

  it("shows the 'Error: Workflow Data Lost' placeholder when a chunk is lost, and keeps the rest", () => {
    const saved = bigWorkflow(30, 10);
    const chunks = chunkWorkflow(saved);
    const withoutSecondNodeChunk = chunks.filter((chunk) => chunk.chunk_index !== 2);
    const assembled = assembleChunks(withoutSecondNodeChunk);
    const placeholder = assembled.nodes.find((node) => node.data.label === DATA_LOST_LABEL);
    expect(placeholder).toBeDefined();
    expect(placeholder?.data.status).toBe("error");
    expect(assembled.nodes).toHaveLength(21);
    const ids = new Set(assembled.nodes.map((node) => node.id));
    for (const edge of assembled.edges)
      expect(ids.has(edge.source) && ids.has(edge.target)).toBe(true);
    expect(zSavedWorkflow.safeParse(assembled).success).toBe(true);
  });

  it("throws 'Metadata chunk not found' without the metadata chunk", () => {
    const chunks = chunkWorkflow(bigWorkflow(3, 10)).filter(
      (chunk) => chunk.chunk_type !== "metadata",
    );
    expect(() => assembleChunks(chunks)).toThrow("Metadata chunk not found");
  });

  it("round-trips any workflow, with small chunk limits to force splitting", () => {
    fc.assert(
      fc.property(chunkedWorkflow(40), ({ saved, maxChunkBytes }) => {
        const chunks = chunkWorkflow(saved, { maxChunkBytes });
        for (const chunk of chunks) {
          if (chunk.chunk_type !== "metadata")
            expect(chunk.size_bytes).toBeLessThanOrEqual(maxChunkBytes);
        }
        expect(assembleChunks(chunks)).toEqual(saved);
      }),
      { numRuns: 150 },
    );
  });
});
