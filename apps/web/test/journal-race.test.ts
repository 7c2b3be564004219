import { beforeEach, describe, expect, it, vi } from "vitest";

// The journal's IndexedDB write, recorded; the serialization, held until a test lets it go.
const seen = vi.hoisted(() => ({
  writes: [] as { workflowId: string | null; basedOn: string | null }[],
  writtenAt: [] as number[],
  release: null as (() => void) | null,
}));
vi.mock("../src/features/persistence/journal.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../src/features/persistence/journal.ts")>()),
  writeJournal: async (entry: {
    workflowId: string | null;
    basedOn: string | null;
    writtenAt: number;
  }) => {
    seen.writes.push({ workflowId: entry.workflowId, basedOn: entry.basedOn });
    seen.writtenAt.push(entry.writtenAt);
  },
}));
vi.mock("../src/features/persistence/document-io.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../src/features/persistence/document-io.ts")>();
  return {
    ...real,
    serializeCurrentText: async (...args: Parameters<typeof real.serializeCurrentText>) => {
      const data = await real.serializeCurrentText(...args);
      await new Promise<void>((resolve) => {
        seen.release = resolve;
      });
      return data;
    },
  };
});

import { createDocumentStore } from "../src/features/document/store.ts";
import { createPersistence } from "../src/features/persistence/persistence.ts";
import { opened, useWorkspace } from "../src/features/workspace/store.ts";

const letSerializationGo = () => {
  const release = seen.release;
  seen.release = null;
  release?.();
};

/** A save that lands: its id and version, and whether edits came after what it sent. */
const saved = (dirty: boolean) =>
  useWorkspace.setState({
    workflowId: "wf-1",
    basedOn: "v-1",
    dirty,
    save: { state: "saved", progress: 100 },
  });

// The journal write after an edit serializes first; a save may begin and land meanwhile.
describe("a journal write overtaken by a save", () => {
  beforeEach(() => {
    seen.writes = [];
    seen.writtenAt = [];
    seen.release = null;
    opened({ workflowId: null, location: null, basedOn: null, name: "Untitled", dirty: false });
  });

  const editThenSave = async (dirtyAfterSave: boolean) => {
    const documents = createDocumentStore();
    const persistence = createPersistence(documents);
    const stop = persistence.start();
    vi.useFakeTimers();
    try {
      documents.getState().addNode("text", { x: 0, y: 0 });
      await vi.advanceTimersByTimeAsync(1000); // the journal's delay: it starts serializing
      await vi.waitFor(() => expect(seen.release).not.toBeNull());
      saved(dirtyAfterSave);
      letSerializationGo();
      await vi.advanceTimersByTimeAsync(1000); // a write that is still due starts again
      if (dirtyAfterSave) {
        await vi.waitFor(() => expect(seen.release).not.toBeNull());
        letSerializationGo();
      }
      await vi.advanceTimersByTimeAsync(0);
    } finally {
      vi.useRealTimers();
      stop();
    }
  };

  it("is dropped when the save took every edit: no journal of the workflow before it", async () => {
    await editThenSave(false);
    expect(seen.writes).toEqual([]);
  });

  it("is made again with the saved id and version when edits remain unsaved", async () => {
    await editThenSave(true);
    expect(seen.writes).toEqual([{ workflowId: "wf-1", basedOn: "v-1" }]);
  });

  it("is dated when the document was read, so a page-hide journal of later edits wins", async () => {
    const documents = createDocumentStore();
    const persistence = createPersistence(documents);
    const stop = persistence.start();
    vi.useFakeTimers();
    try {
      documents.getState().addNode("text", { x: 0, y: 0 });
      const edited = Date.now();
      await vi.advanceTimersByTimeAsync(1000);
      await vi.waitFor(() => expect(seen.release).not.toBeNull());
      const read = Date.now();
      await vi.advanceTimersByTimeAsync(5000); // a slow serialization (5 MB)
      letSerializationGo();
      await vi.advanceTimersByTimeAsync(0);
      expect(seen.writtenAt).toHaveLength(1);
      expect(seen.writtenAt[0]).toBeGreaterThanOrEqual(edited + 1000);
      expect(seen.writtenAt[0]).toBeLessThanOrEqual(read);
    } finally {
      vi.useRealTimers();
      stop();
    }
  });
});
