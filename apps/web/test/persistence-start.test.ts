import { beforeEach, describe, expect, it, vi } from "vitest";
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
});
