import { beforeEach, describe, expect, it, vi } from "vitest";

// This session's runs go to fal (GET /api/pricing).
const pricing = vi.hoisted(() => ({ calls: 0 }));
// How often the editor makes a node's run signature (kept per node between edits).
const signatures = vi.hoisted(() => ({ made: 0 }));
vi.mock("@atelier/core", async (original) => {
  const core = await original<typeof import("@atelier/core")>();
  return {
    ...core,
    runSignatureOf: (...args: Parameters<typeof core.runSignatureOf>) => {
      signatures.made++;
      return core.runSignatureOf(...args);
    },
  };
});
vi.mock("../src/services/costs-api.ts", () => ({
  costsApi: {
    pricing: async () => {
      pricing.calls++;
      return { providers: ["fal", "local"], doneLocally: [] };
    },
  },
}));

const { runSignatureOf } = await import("@atelier/core");
const { createDocumentStore } = await import("../src/features/document/store.ts");
const { followEstimates } = await import("../src/features/costs/estimates.ts");
const { useEstimates } = await import("../src/features/costs/estimates-store.ts");
const { confirmRunCost } = await import("../src/features/costs/cost-prompt.ts");
const { useCostPrompt } = await import("../src/features/costs/cost-prompt-store.ts");
const { usePreferences } = await import("../src/features/preferences/store.ts");
const { useWorkspace } = await import("../src/features/workspace/store.ts");

/** The estimates follow edits a moment after the last one. */
const settled = () => vi.advanceTimersByTimeAsync(200);

describe("cost estimates in the editor", () => {
  beforeEach(() => vi.useFakeTimers());

  it("estimates each provider node from its parameters and wires, and Run all's total", async () => {
    const documents = createDocumentStore();
    const state = () => documents.getState();
    const first = state().addNode("utility", { x: 0, y: 0 });
    const last = state().addNode("utility", { x: 0, y: 200 });
    const veo = state().addNode("veo31-video", { x: 400, y: 0 });
    const flux = state().addNode("flux-pro", { x: 400, y: 400 });
    const release = followEstimates(documents);
    await settled();
    // Veo 3.1 text-to-video has no published price; nor has FLUX on fal.
    expect(useEstimates.getState().byNode[veo.id]).toMatchObject({
      usd: null,
      endpoint: "fal-ai/veo3.1",
    });
    expect(useEstimates.getState().total).toEqual({ usd: 0, unknown: 2 });

    state().setParam(veo.id, "model", "fast");
    state().setParam(veo.id, "duration", "4s");
    state().connect({
      source: first.id,
      sourceHandle: "output",
      target: veo.id,
      targetHandle: "firstFrame",
    });
    state().connect({
      source: last.id,
      sourceHandle: "output",
      target: veo.id,
      targetHandle: "lastFrame",
    });
    await settled();
    expect(useEstimates.getState().byNode[veo.id]).toEqual({
      usd: 0.6,
      provider: "fal",
      endpoint: "fal-ai/veo3.1/fast/first-last-frame-to-video",
    });
    expect(useEstimates.getState().byNode[flux.id]?.usd).toBeNull();
    expect(useEstimates.getState().total).toEqual({ usd: 0.6, unknown: 1 });
    expect(pricing.calls).toBe(1);

    // Released by its last reader, it follows the document no more.
    release();
    state().setParam(veo.id, "duration", "8s");
    await settled();
    expect(useEstimates.getState().byNode[veo.id]?.usd).toBe(0.6);
  });

  it("estimates a graph of hundreds of provider nodes in slices, and totals every share", async () => {
    const documents = createDocumentStore();
    const state = () => documents.getState();
    const ids = Array.from(
      { length: 600 },
      (_, at) => state().addNode("flux-pro", { x: at * 10, y: 0 }).id,
    );
    const release = followEstimates(documents);
    await settled();
    // Each slice is a task of its own (a timer): let every one run.
    await vi.runAllTimersAsync();
    expect(Object.keys(useEstimates.getState().byNode)).toHaveLength(600);
    expect(useEstimates.getState().byNode[ids[599] ?? ""]?.endpoint).toBeTruthy();
    // FLUX on fal has no published price: 600 nodes counted as unknown, across the slices.
    expect(useEstimates.getState().total).toEqual({ usd: 0, unknown: 600 });
    release();
  });

  /** Veo 3.1 fast, 4 s, between a first and a last frame: $0.60 on fal. */
  function framedVeo(documents: ReturnType<typeof createDocumentStore>) {
    const state = () => documents.getState();
    const first = state().addNode("utility", { x: 0, y: 200 });
    const last = state().addNode("utility", { x: 0, y: 400 });
    const veo = state().addNode("veo31-video", { x: 400, y: 0 });
    state().setParam(veo.id, "model", "fast");
    state().setParam(veo.id, "duration", "4s");
    for (const [source, targetHandle] of [
      [first.id, "firstFrame"],
      [last.id, "lastFrame"],
    ] as const)
      state().connect({ source, sourceHandle: "output", target: veo.id, targetHandle });
    return veo;
  }

  it("counts nothing for a node that keeps its result, until what its run reads changes", async () => {
    const documents = createDocumentStore();
    const state = () => documents.getState();
    const veo = framedVeo(documents);
    const text = state().addNode("text", { x: 0, y: 0 });
    const other = state().addNode("text", { x: 0, y: 600 });
    state().setParam(text.id, "text", "a lighthouse at dusk");
    state().connect({
      source: text.id,
      sourceHandle: "text",
      target: veo.id,
      targetHandle: "prompt",
    });
    const release = followEstimates(documents);
    await settled();
    expect(useEstimates.getState().total).toEqual({ usd: 0.6, unknown: 0 });

    // Completed with these inputs: a run keeps the result.
    const priced = useEstimates.getState().byNode[veo.id];
    const { nodes, edges } = state();
    state().updateNodeData(veo.id, {
      status: "complete",
      runSignature: runSignatureOf(nodes, edges, veo.id),
    });
    await settled();
    expect(useEstimates.getState().total).toEqual({ usd: 0, unknown: 0 });
    // Its price is unchanged: the same estimate, so its readers do not re-render.
    expect(useEstimates.getState().byNode[veo.id]).toBe(priced);

    // A node it does not read changes: still kept, and its signature is not made again.
    const made = signatures.made;
    state().setParam(other.id, "text", "unrelated");
    await settled();
    expect(useEstimates.getState().total).toEqual({ usd: 0, unknown: 0 });
    expect(signatures.made).toBe(made);

    // The text wired into its prompt changes: the run would run it again.
    state().setParam(text.id, "text", "a lighthouse at dawn");
    await settled();
    expect(useEstimates.getState().total).toEqual({ usd: 0.6, unknown: 0 });
    release();
  });

  it("waits while a save is under way, then catches up", async () => {
    const documents = createDocumentStore();
    framedVeo(documents);
    const release = followEstimates(documents);
    await settled();
    expect(useEstimates.getState().total).toEqual({ usd: 0.6, unknown: 0 });
    useWorkspace.setState({ save: { state: "saving", progress: 5 } });
    // FLUX on fal has no published price: one unknown, once the save is done.
    documents.getState().addNode("flux-pro", { x: 800, y: 0 });
    await settled();
    await settled();
    expect(useEstimates.getState().total).toEqual({ usd: 0.6, unknown: 0 });
    useWorkspace.setState({ save: { state: "saved", progress: 100 } });
    await settled();
    expect(useEstimates.getState().total).toEqual({ usd: 0.6, unknown: 1 });
    release();
  });

  it("asks before a run estimated above the threshold, and not below it", async () => {
    usePreferences.getState().setPreference("confirmRunAboveUsd", 1);
    expect(await confirmRunCost({ usd: 0.6, unknown: 3 })).toBe(true);
    expect(useCostPrompt.getState().pending).toBeNull();

    const asked = confirmRunCost({ usd: 3.2, unknown: 1 });
    expect(useCostPrompt.getState().pending?.message).toBe(
      "This run is estimated at $3.20, plus 1 node with no published price. Run it?",
    );
    useCostPrompt.getState().pending?.answer(false);
    expect(await asked).toBe(false);
    expect(useCostPrompt.getState().pending).toBeNull();
  });
});
