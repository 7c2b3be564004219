import "fake-indexeddb/auto";
import type { SavedWorkflow } from "@atelier/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mayHoldLocalData } from "../src/features/persistence/document-io.ts";
import { readJournal, writeJournal } from "../src/features/persistence/journal.ts";

const entry = {
  workflowId: "local-0001",
  name: "Kept",
  basedOn: null,
  writtenAt: 1,
  data: { nodes: [], edges: [] } as unknown as SavedWorkflow,
};
const noQuickEntry = { getItem: () => null } as unknown as Storage;

afterEach(() => vi.unstubAllGlobals());

// A first visit reads what is stored without loading the database code (issue 26, F2).
describe("a first visit's storage check", () => {
  it("reads no database this browser does not have, then finds the one a journal write made", async () => {
    expect(await mayHoldLocalData()).toBe(false);
    expect(await readJournal(noQuickEntry)).toBeNull();
    await writeJournal(entry);
    expect(await mayHoldLocalData()).toBe(true);
    expect(await readJournal(noQuickEntry)).toMatchObject({
      workflowId: "local-0001",
      name: "Kept",
    });
  });

  it("assumes stored data where the browser cannot list its databases", async () => {
    vi.stubGlobal("indexedDB", { ...indexedDB, databases: undefined });
    expect(await mayHoldLocalData()).toBe(true);
    vi.stubGlobal("indexedDB", {
      databases: () => Promise.reject(new Error("not allowed")),
    });
    expect(await mayHoldLocalData()).toBe(true);
  });
});
