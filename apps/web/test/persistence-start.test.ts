import { beforeEach, describe, expect, it, vi } from "vitest";

// The journal's IndexedDB write, watched (the rest of journal.ts is the real one).
const journal = vi.hoisted(() => ({ writes: 0 }));
vi.mock("../src/features/persistence/journal.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../src/features/persistence/journal.ts")>()),
  writeJournal: async () => {
    journal.writes++;
  },
}));

import { createDocumentStore } from "../src/features/document/store.ts";
import { createPersistence } from "../src/features/persistence/persistence.ts";
import { opened, useWorkspace } from "../src/features/workspace/store.ts";

const clean = () =>
  opened({ workflowId: null, location: null, basedOn: null, name: "Untitled", dirty: false });

// React may throw a first render away (a suspended mount): what it built must not follow
// the document or the workspace, or a ghost editor marks, reloads and saves (an empty graph).
describe("persistence follows the document only once started", () => {
  beforeEach(clean);

  it("a persistence never started leaves edits alone; a started one marks them until stopped", () => {
    const documents = createDocumentStore();
    const persistence = createPersistence(documents);
    documents.getState().addNode("text", { x: 0, y: 0 });
    expect(useWorkspace.getState().dirty).toBe(false);

    const stop = persistence.start();
    documents.getState().addNode("text", { x: 0, y: 100 });
    expect(useWorkspace.getState().dirty).toBe(true);

    stop();
    clean();
    documents.getState().addNode("text", { x: 0, y: 200 });
    expect(useWorkspace.getState().dirty).toBe(false);
  });

  it("a rename alone is written on page hide (its writer loads once the workflow is unsaved)", async () => {
    localStorage.clear();
    const persistence = createPersistence(createDocumentStore());
    const stop = persistence.start();
    persistence.setName("Renamed only");
    await vi.waitFor(() => {
      persistence.flushOnExit();
      expect(localStorage.getItem("atelier.cleanExit")).toBe("1");
    });
    expect(JSON.parse(localStorage.getItem("atelier.exitJournal") ?? "{}")).toMatchObject({
      name: "Renamed only",
    });
    stop();
  });

  const editWhileSaving = async (outcome: () => void) => {
    // The serializer is loaded, as after a first save.
    await import("../src/features/persistence/serializer.ts");
    journal.writes = 0;
    const documents = createDocumentStore();
    const persistence = createPersistence(documents);
    const stop = persistence.start();
    vi.useFakeTimers();
    try {
      documents.getState().addNode("text", { x: 0, y: 0 });
      useWorkspace.setState({ save: { state: "saving", progress: 40 } });
      await vi.advanceTimersByTimeAsync(3000);
      outcome();
      await vi.advanceTimersByTimeAsync(2000);
    } finally {
      vi.useRealTimers();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    stop();
    return journal.writes;
  };

  it("journals no edit while a save that takes it is under way (once it lands, none)", async () => {
    const writes = await editWhileSaving(() =>
      useWorkspace.setState({ dirty: false, save: { state: "saved", progress: 100 } }),
    );
    expect(writes).toBe(0);
  });

  it("journals the edit once a save under way fails", async () => {
    const writes = await editWhileSaving(() =>
      useWorkspace.setState({ save: { state: "error", progress: 0 } }),
    );
    expect(writes).toBe(1);
  });
});
