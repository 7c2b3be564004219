import { describe, expect, it } from "vitest";
import { createDocumentStore } from "../src/features/document/store.ts";
import { runGraph, runSignature, UNCHANGED_NOTE } from "../src/features/runs/run-graph.ts";
import { node, wire } from "./helpers/graph.ts";

/** text → image → video, with a fake run that completes on the next tick (or fails). */
function setup(fail: string[] = []) {
  const documents = createDocumentStore();
  documents.getState().load({
    nodes: [
      node("t", "text", { inputValues: { text: { value: "a fox" } } }),
      node("img", "flux-pro"),
      node("vid", "runway-video"),
    ],
    edges: [wire("t", "text", "img", "prompt"), wire("img", "image", "vid", "image")],
  });
  const log: string[] = [];
  let outputs = 0;
  const patch = (id: string, data: Record<string, unknown>) => {
    const current = documents.getState().nodes.find((candidate) => candidate.id === id);
    if (current) documents.getState().applyExternal(new Map([[id, { ...current.data, ...data }]]));
  };
  const run = async (id: string) => {
    const signature = runSignature(documents, id);
    log.push(`start ${id}`);
    patch(id, { status: "processing" });
    queueMicrotask(() => {
      log.push(`end ${id}`);
      if (fail.includes(id)) patch(id, { status: "error", error: "Generation failed" });
      else
        patch(id, {
          status: "complete",
          runSignature: signature,
          outputValues: { image: { value: `https://x/${id}-${++outputs}.png` } },
        });
    });
  };
  const notes = new Map<string, string | null>();
  const mark = (id: string, note: string | null) => notes.set(id, note);
  return { documents, log, run, mark, notes };
}

describe("runGraph (Run all / Run to here)", () => {
  it("starts each node only after the nodes feeding it have completed", async () => {
    const { documents, log, run, mark } = setup();
    const result = await runGraph(documents, run, mark, null);
    expect(result).toEqual({ ok: true, ran: ["img", "vid"], skipped: [], failed: [] });
    expect(log).toEqual(["start img", "end img", "start vid", "end vid"]);
  });

  it("skips nodes whose model, inputs and parameters are unchanged, and reruns after an edit", async () => {
    const { documents, log, run, mark, notes } = setup();
    await runGraph(documents, run, mark, null);
    log.length = 0;
    const again = await runGraph(documents, run, mark, null);
    expect(again).toEqual({ ok: true, ran: [], skipped: ["img", "vid"], failed: [] });
    expect(log).toEqual([]);
    expect(notes.get("vid")).toBe(UNCHANGED_NOTE);
    documents.getState().setParam("t", "text", "a fox in the snow");
    const edited = await runGraph(documents, run, mark, null);
    expect(edited).toMatchObject({ ran: ["img", "vid"], skipped: [] });
    expect(notes.get("vid")).toBeNull();
  });

  it("runs only what feeds the target for Run to here", async () => {
    const { documents, log, run, mark } = setup();
    await runGraph(documents, run, mark, "img");
    expect(log).toEqual(["start img", "end img"]);
  });

  it("does not run a node whose feeder failed", async () => {
    const { documents, log, run, mark } = setup(["img"]);
    const result = await runGraph(documents, run, mark, null);
    expect(result).toEqual({ ok: true, ran: [], skipped: [], failed: ["img"] });
    expect(log).toEqual(["start img", "end img"]);
  });

  it("treats a dropped file's holder as a source: never run, its file feeds on", async () => {
    const { documents, log, run, mark } = setup();
    documents.getState().load({
      nodes: [
        node("file", "utility", { outputs: { imageUrl: "/api/media/file/a.png" } }),
        node("up", "upscaler"),
      ],
      edges: [wire("file", "output", "up", "image")],
    });
    const result = await runGraph(documents, run, mark, null);
    expect(result).toEqual({ ok: true, ran: ["up"], skipped: [], failed: [] });
    expect(log).toEqual(["start up", "end up"]);
  });

  it("reports a cycle instead of running", async () => {
    const { documents, run, mark, log } = setup();
    const { nodes, edges } = documents.getState();
    documents
      .getState()
      .load({ nodes, edges: [...edges, wire("vid", "capturedFrame", "img", "image")] });
    const result = await runGraph(documents, run, mark, null);
    expect(result.ok).toBe(false);
    expect(log).toEqual([]);
  });
});
