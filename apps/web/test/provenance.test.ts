import type { Provenance } from "@atelier/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDocumentStore } from "../src/features/document/store.ts";
import {
  loadProvenance,
  provenanceSource,
  rerunExactly,
} from "../src/features/runs/provenance-actions.ts";
import { dropUpload, UPLOAD_NODE_TYPE } from "../src/features/uploads/drop-upload.ts";

vi.mock("../src/ui/notify.ts", () => ({
  notify: { error: vi.fn(), info: vi.fn(), action: vi.fn() },
}));

const provenance: Provenance = {
  model: "flux-pro",
  provider: "local",
  parameters: { numImages: 2, raw: true, unknownParam: 1 },
  seed: 1234,
  prompt: "a red fox — ünïcode",
  runId: null,
  workflowId: null,
  version: null,
  createdAt: "2026-11-25T00:00:00.000Z",
  cost: null,
};

const utf8 = (text: string) => [...new TextEncoder().encode(text)];
const chunk = (type: string, data: number[]) => {
  const length = [24, 16, 8, 0].map((shift) => (data.length >>> shift) & 0xff);
  return [...length, ...utf8(type), ...data, 0, 0, 0, 0];
};
/** A PNG's chunk structure with an `atelier` iTXt chunk (the reader needs no pixels). */
const atelierPng = (record: object | null) =>
  Uint8Array.from([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...chunk("IHDR", new Array(13).fill(0)),
    ...(record
      ? chunk("iTXt", [...utf8("atelier"), 0, 0, 0, 0, 0, ...utf8(JSON.stringify(record))])
      : []),
    ...chunk("IEND", []),
  ]);

const pngFile = (name: string, record: object | null) =>
  new File([atelierPng(record)], name, { type: "image/png" });

afterEach(() => vi.unstubAllGlobals());

describe("dropping an Atelier PNG (issue 22 §4)", () => {
  const options = (documents: ReturnType<typeof createDocumentStore>, recreate: boolean) => ({
    documents,
    upload: vi.fn(async (_file: Blob, name: string) => ({ url: `/api/media/file/u/w/${name}` })),
    workflowId: "wf-1",
    compressImages: false,
    queueOptions: { wait: async () => {} },
    recreateGenerators: recreate,
  });

  it("recreates the generator with its parameters, prompt and seed; a plain PNG is uploaded as before", async () => {
    const documents = createDocumentStore();
    const drop = options(documents, true);
    const results = await dropUpload(
      [pngFile("made.png", provenance), pngFile("plain.png", null)],
      { x: 10, y: 20 },
      drop,
    );
    const [made, plain] = documents.getState().nodes;
    expect(made?.type).toBe("flux-pro");
    expect(made?.position).toEqual({ x: 10, y: 20 });
    expect(made?.data.inputValues).toMatchObject({
      prompt: { value: provenance.prompt },
      seed: { value: 1234 },
      numImages: { value: 2 },
      raw: { value: true },
    });
    expect(made?.data.inputValues).not.toHaveProperty("unknownParam");
    expect(plain?.type).toBe(UPLOAD_NODE_TYPE);
    expect(drop.upload).toHaveBeenCalledTimes(1);
    expect(drop.upload.mock.calls[0]?.[1]).toBe("plain.png");
    expect(results[0]).toEqual({ name: "made.png", nodeId: made?.id, url: null, error: null });
    expect(results[1]?.url).toBe("/api/media/file/u/w/plain.png");
  });

  it("uploads it as usual when the drop fills a node's input", async () => {
    const documents = createDocumentStore();
    const drop = options(documents, false);
    await dropUpload([pngFile("made.png", provenance)], { x: 0, y: 0 }, drop);
    expect(documents.getState().nodes.map((node) => node.type)).toEqual([UPLOAD_NODE_TYPE]);
    expect(drop.upload).toHaveBeenCalledTimes(1);
  });
});

describe("a result's provenance and Re-run exactly", () => {
  it("reads an image's own bytes, and the sidecar of other media; only our media files", async () => {
    const fetched: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        fetched.push(url);
        if (url.endsWith(".png")) return new Response(atelierPng(provenance));
        if (url.endsWith(".webm.atelier.json")) return new Response(JSON.stringify(provenance));
        return new Response("nope", { status: 404 });
      }),
    );
    const origin = globalThis.location.origin;
    const image = provenanceSource({ imageUrl: `${origin}/api/media/file/u/w/a.png` });
    expect(image).toEqual({ url: `${origin}/api/media/file/u/w/a.png`, image: true });
    expect(await loadProvenance(image as { url: string; image: boolean })).toEqual(provenance);
    const video = provenanceSource({ videoUrl: "/api/media/file/u/w/b.webm" });
    expect(await loadProvenance(video as { url: string; image: boolean })).toEqual(provenance);
    expect(fetched).toEqual([
      `${origin}/api/media/file/u/w/a.png`,
      `${origin}/api/media/file/u/w/b.webm.atelier.json`,
    ]);
    expect(
      provenanceSource({ imageUrl: "https://elsewhere.example/api/media/file/x.png" }),
    ).toBeNull();
    expect(provenanceSource({})).toBeNull();
  });

  it("sets the node's parameters from the record and runs it; another type's record does nothing", () => {
    const documents = createDocumentStore();
    const node = documents.getState().addNode("flux-pro", { x: 0, y: 0 });
    documents.getState().setParam(node.id, "seed", 9);
    documents.getState().setParam(node.id, "prompt", "edited since");
    const runner = { run: vi.fn(async () => {}) };
    expect(rerunExactly(documents, runner, node.id, provenance)).toBe(true);
    const data = documents.getState().nodes[0]?.data;
    expect(data?.inputValues).toMatchObject({
      seed: { value: 1234 },
      prompt: { value: provenance.prompt },
      numImages: { value: 2 },
    });
    expect(runner.run).toHaveBeenCalledWith(node.id);
    expect(rerunExactly(documents, runner, node.id, { ...provenance, model: "seedance" })).toBe(
      false,
    );
    expect(runner.run).toHaveBeenCalledTimes(1);
  });
});
