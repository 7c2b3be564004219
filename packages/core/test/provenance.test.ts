import { describe, expect, it } from "vitest";
import {
  nodeFromProvenance,
  type Provenance,
  parseProvenance,
  provenanceXmp,
  readEmbeddedProvenance,
  readPngText,
} from "../src/index.ts";

const provenance: Provenance = {
  model: "flux-pro",
  provider: "local",
  parameters: { numImages: 1 },
  seed: 42,
  prompt: "a fox — ünïcode & <b>",
  runId: "r1",
  workflowId: "w1",
  version: "2026-11-01T00:00:00.000Z",
  createdAt: "2026-11-25T00:00:00.000Z",
  cost: null,
};

/** UTF-8 bytes (core's tests are typed without Node or DOM encoders). */
const utf8 = (text: string) =>
  Uint8Array.from(encodeURIComponent(text).match(/%[0-9A-F]{2}|./gi) ?? [], (part) =>
    part.length === 3 ? Number.parseInt(part.slice(1), 16) : part.charCodeAt(0),
  );

/** A PNG's chunk (CRC left zero: the reader does not need it). */
function chunk(type: string, data: Uint8Array) {
  const head = new Uint8Array(8);
  new DataView(head.buffer).setUint32(0, data.length);
  head.set(utf8(type), 4);
  return [...head, ...data, 0, 0, 0, 0];
}

function png(...chunks: number[][]) {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  return Uint8Array.from([
    ...signature,
    ...chunk("IHDR", new Uint8Array(13)),
    ...chunks.flat(),
    ...chunk("IEND", new Uint8Array()),
  ]);
}

const itxt = (keyword: string, text: string, compressed = 0) =>
  chunk("iTXt", Uint8Array.from([...utf8(keyword), 0, compressed, 0, 0, 0, ...utf8(text)]));

describe("provenance read from a file's bytes", () => {
  it("finds the `atelier` iTXt chunk of a PNG among other text", () => {
    const bytes = png(itxt("Comment", "hello"), itxt("atelier", JSON.stringify(provenance)));
    expect(readPngText(bytes, "Comment")).toBe("hello");
    expect(readEmbeddedProvenance(bytes)).toEqual(provenance);
  });

  it("ignores a compressed chunk, another keyword, bad JSON and fields of the wrong type", () => {
    expect(readEmbeddedProvenance(png(itxt("atelier", JSON.stringify(provenance), 1)))).toBeNull();
    expect(readEmbeddedProvenance(png(itxt("atelierx", JSON.stringify(provenance))))).toBeNull();
    expect(readEmbeddedProvenance(png(itxt("atelier", "{not json")))).toBeNull();
    expect(readEmbeddedProvenance(png())).toBeNull();
    expect(parseProvenance(JSON.stringify({ ...provenance, seed: "42" }))).toBeNull();
    expect(
      parseProvenance(JSON.stringify({ ...provenance, prompt: "x".repeat(100_001) })),
    ).toBeNull();
  });

  it("reads the XMP packet from any container, escapes undone", () => {
    const packet = provenanceXmp(JSON.stringify(provenance));
    expect(packet).not.toContain("<b>");
    const bytes = Uint8Array.from([0xff, 0xd8, 0xff, 0xe1, ...utf8(packet), 0xff, 0xd9]);
    expect(readEmbeddedProvenance(bytes)).toEqual(provenance);
  });
});

describe("the node a provenance record recreates", () => {
  it("keeps the node type's parameters whose values pass, with prompt and seed", () => {
    const node = nodeFromProvenance({
      ...provenance,
      parameters: { numImages: 2, outputFormat: "gif", unknown: 1, raw: true },
    });
    expect(node).toEqual({
      type: "flux-pro",
      values: { numImages: 2, raw: true, prompt: provenance.prompt, seed: 42 },
    });
  });

  it("answers null for a type the catalogue lacks or that never runs", () => {
    expect(nodeFromProvenance({ ...provenance, model: "no-such-node" })).toBeNull();
    expect(nodeFromProvenance({ ...provenance, model: "notepad" })).toBeNull();
    expect(nodeFromProvenance({ ...provenance, model: null })).toBeNull();
  });
});
