import "fake-indexeddb/auto";
import type { SavedWorkflow } from "@atelier/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  clearJournal,
  journaledWorkflow,
  readJournal,
  writeJournal,
} from "../src/features/persistence/journal.ts";

const saved = (name: string) =>
  ({
    version: "1.0.0",
    metadata: { name },
    nodes: [{ id: "n1" }],
    edges: [],
  }) as unknown as SavedWorkflow;
/** What `readJournal` finds, as the saved form it holds. */
async function journaled(storage: Storage) {
  const entry = await readJournal(storage);
  if (!entry) throw new Error("no journal entry");
  return journaledWorkflow(entry);
}
const noQuickEntry = { getItem: () => null, removeItem: () => {} } as unknown as Storage;

afterEach(() => clearJournal(noQuickEntry));

// The journal keeps the worker's JSON text as is: no parse or object clone on the main thread.
describe("the journal's saved form", () => {
  it("keeps the text it is given and parses it only when read back", async () => {
    const text = JSON.stringify(saved("As text"));
    await writeJournal({ workflowId: null, name: "As text", text, writtenAt: 2 });
    const entry = await readJournal(noQuickEntry);
    expect(entry?.text).toBe(text);
    expect(entry?.data).toBeUndefined();
    expect(await journaled(noQuickEntry)).toEqual(saved("As text"));
  });

  it("still reads an entry an earlier version wrote as an object", async () => {
    await writeJournal({ workflowId: null, name: "Old", data: saved("Old"), writtenAt: 1 });
    expect(await journaled(noQuickEntry)).toEqual(saved("Old"));
  });

  it("prefers the newer of the page-hide entry (an object) and the stored text", async () => {
    await writeJournal({
      workflowId: null,
      name: "Stored",
      text: JSON.stringify(saved("Stored")),
      writtenAt: 5,
    });
    const quick = JSON.stringify({
      workflowId: null,
      name: "Quick",
      data: saved("Quick"),
      writtenAt: 9,
    });
    const storage = { getItem: () => quick, removeItem: () => {} } as unknown as Storage;
    expect(await journaled(storage)).toEqual(saved("Quick"));
  });
});
