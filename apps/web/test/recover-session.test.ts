import { beforeEach, describe, expect, it, vi } from "vitest";
import type { JournalData } from "../src/features/persistence/journal.ts";

const journal = vi.hoisted(() => ({ entry: null as JournalData | null, onRead: () => {} }));
vi.mock("../src/features/persistence/journal.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../src/features/persistence/journal.ts")>()),
  readJournal: async () => {
    journal.onRead();
    return journal.entry;
  },
}));
vi.mock("../src/features/persistence/read-graph.ts", () => ({
  readGraph: () => ({ graph: { nodes: [], edges: [] }, recovered: false }),
}));
vi.mock("../src/ui/notify.ts", () => ({
  notify: { action: vi.fn(), info: vi.fn(), error: vi.fn() },
}));

const { recoverSession } = await import("../src/features/persistence/open-workflow.ts");
const { notify } = await import("../src/ui/notify.ts");
const { useWorkspace } = await import("../src/features/workspace/store.ts");

/** Persistence as recovery sees it: a canvas that counts what is put on it. */
function fakeTarget() {
  let loads = 0;
  return {
    replaceDocument: vi.fn(() => void loads++),
    newWorkflow: vi.fn(),
    open: vi.fn(async () => {
      loads++;
      return "opened" as const;
    }),
    loads: () => loads,
    /** The user opens something from the library. */
    userOpens: () => void loads++,
  };
}

const entryOf = (workflowId: string | null): JournalData => ({
  workflowId,
  name: "Edited",
  basedOn: "2026-11-25T00:00:00.000Z",
  data: {} as JournalData["data"],
  writtenAt: 1,
});

describe("start-up recovery (recoverSession)", () => {
  beforeEach(() => {
    localStorage.clear();
    journal.entry = null;
    journal.onRead = () => {};
    vi.mocked(notify.action).mockClear();
  });

  it("at /, opens the last workflow, reporting it when gone", async () => {
    localStorage.setItem("atelier.lastWorkflow", "last");
    const target = fakeTarget();
    expect(await recoverSession(target, undefined, 0)).toBe("opened");
    expect(target.open).toHaveBeenCalledWith("last", { reportMissing: true });
  });

  it("at a workflow's address, after a normal close, brings back that workflow's edits silently", async () => {
    localStorage.setItem("atelier.cleanExit", "1");
    journal.entry = entryOf("w1");
    const target = fakeTarget();
    expect(await recoverSession(target, "w1", 0)).toBe("opened");
    expect(target.open).not.toHaveBeenCalled();
    expect(target.replaceDocument).toHaveBeenCalledTimes(1);
    expect(useWorkspace.getState()).toMatchObject({ workflowId: "w1", dirty: true });
    expect(localStorage.getItem("atelier.cleanExit")).toBeNull();
  });

  it("at another workflow's address, opens that one and offers the edits", async () => {
    localStorage.setItem("atelier.cleanExit", "1");
    journal.entry = entryOf("w1");
    const target = fakeTarget();
    expect(await recoverSession(target, "w2", 0)).toBe("opened");
    expect(target.open).toHaveBeenCalledWith("w2", { reportMissing: false });
    expect(target.replaceDocument).not.toHaveBeenCalled();
    expect(notify.action).toHaveBeenCalledWith(
      "Unsaved changes from your last session were found.",
      "Restore",
      expect.any(Function),
    );
  });

  it("leaves a document the user opened meanwhile on the canvas, and only offers the edits", async () => {
    localStorage.setItem("atelier.cleanExit", "1");
    localStorage.setItem("atelier.lastWorkflow", "last");
    journal.entry = entryOf("last");
    const target = fakeTarget();
    journal.onRead = target.userOpens;
    expect(await recoverSession(target, undefined, 0)).toBe("opened");
    expect(target.open).not.toHaveBeenCalled();
    expect(target.replaceDocument).not.toHaveBeenCalled();
    expect(notify.action).toHaveBeenCalledTimes(1);
  });
});
