import "fake-indexeddb/auto";
import { serializeWorkflow } from "@atelier/core";
import { beforeEach, describe, expect, it, vi } from "vitest";

// The server does not answer (offline): every open falls back to this device's copy.
vi.mock("../src/services/api.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../src/services/api.ts")>();
  return {
    ...original,
    api: {
      getWorkflowText: () => Promise.reject(new original.ApiError(0, "Network error")),
    },
  };
});
// Counts the open's yields to the event loop (its short steps).
const tasks = vi.hoisted(() => ({ count: 0 }));
vi.mock("../src/services/next-task.ts", () => ({
  nextTask: () => {
    tasks.count++;
    return Promise.resolve();
  },
}));

const { fetchWorkflow, keepSavedCopyWhenIdle, LOAD_STEPS } = await import(
  "../src/features/persistence/load-workflow.ts"
);
const { textBlob } = await import("../src/features/persistence/read-answer.ts");
const { localDb } = await import("../src/features/persistence/local-db.ts");

const ID = "0b8f2a34-5a1c-4f2e-9d1b-3c5e7a9b1d2f";
const saved = serializeWorkflow(
  Array.from({ length: 800 }, (_, index) => ({
    id: `n${index}`,
    type: "text",
    position: { x: index * 10, y: 0 },
    data: { inputValues: { text: { value: `prompt ${index} ${"word ".repeat(600)}` } } },
  })),
  [],
  { name: "Kept" },
);

describe("a warm open from this device's copy (the server not answering)", () => {
  beforeEach(async () => {
    await localDb.workflows.clear();
    tasks.count = 0;
  });

  it("reads a copy kept as the open's answer in short steps, already checked", async () => {
    const answer = JSON.stringify({
      workflow: { id: ID, name: "Kept", updated_at: "2026-11-28T10:00:00.000Z", data: saved },
    });
    // Over 2 MB: the size an answer is parsed in steps from.
    expect(answer.length).toBeGreaterThan(2_000_000);
    // fake-indexeddb does not keep happy-dom's Blob: the copy is handed over as stored.
    const copy = { id: ID, name: "Kept", blob: await textBlob(answer), updatedAt: 1 };
    vi.spyOn(localDb.workflows, "get").mockResolvedValueOnce(copy);
    const steps: string[] = [];
    const found = await fetchWorkflow(ID, (step) => steps.push(step));
    expect(steps).toContain(LOAD_STEPS.fallback);
    expect(found).toMatchObject({ id: ID, name: "Kept", fromDevice: true, basedOn: null });
    // Checked here, in steps: the open puts it on the canvas without a check of its own.
    expect(found.data).toBeUndefined();
    expect(found.read?.graph.nodes).toHaveLength(800);
    expect(found.read?.recovered).toBe(false);
    expect(tasks.count).toBeGreaterThan(3);
  });

  it("reads a copy an earlier version kept as a string the same way", async () => {
    const answer = JSON.stringify({ workflow: { id: ID, name: "Old", data: saved } });
    await localDb.workflows.put({ id: ID, name: "Old", text: answer, updatedAt: 1 });
    const found = await fetchWorkflow(ID, () => undefined);
    expect(found).toMatchObject({ name: "Old", fromDevice: true, basedOn: null });
    expect(found.read?.graph.nodes).toHaveLength(800);
    expect(tasks.count).toBeGreaterThan(3);
  });

  it("reads a copy written after a save (data) checked in steps too", async () => {
    // A browser that keeps no Blob: the save's copy is kept as data.
    await keepSavedCopyWhenIdle(ID, "Kept", saved, () => Promise.reject(new Error("no Blob")));
    const found = await fetchWorkflow(ID, () => undefined);
    expect(found).toMatchObject({ name: "Kept", fromDevice: true, location: "cloud" });
    expect(found.data).toBeUndefined();
    expect(found.read?.graph.nodes.map((node) => node.id)).toEqual(
      saved.nodes.map((node) => node.id),
    );
    expect(tasks.count).toBeGreaterThan(0);
  });

  it("a save's copy does not replace a newer one written meanwhile", async () => {
    await localDb.workflows.put({
      id: ID,
      name: "Newer",
      text: "{}",
      updatedAt: Date.now() + 60_000,
    });
    await keepSavedCopyWhenIdle(ID, "Older", saved, () => Promise.reject(new Error("no Blob")));
    expect((await localDb.workflows.get(ID))?.name).toBe("Newer");
  });

  it("a copy that is not there is missing", async () => {
    await expect(fetchWorkflow(ID, () => undefined)).rejects.toThrow(ID);
  });
});
