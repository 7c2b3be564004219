import { LIMITS, type SavedWorkflow, utf8ByteLength } from "@atelier/core";
import { local, mayHoldLocalData } from "./document-io.ts";
import type { JournalEntry } from "./local-db.ts";

const EXIT_KEY = "atelier.exitJournal";
/** Set by a normal close (page hide): the next start brings the journal back silently. */
export const CLEAN_EXIT_KEY = "atelier.cleanExit";
const MB = 1024 * 1024;

export type JournalData = Omit<JournalEntry, "key">;

/** The entry's saved form: its text parsed (entries of earlier versions hold the object). */
export function journaledWorkflow(entry: JournalData): SavedWorkflow {
  return entry.text === undefined ? (entry.data as SavedWorkflow) : JSON.parse(entry.text);
}

/** Journals unsaved edits to IndexedDB (the throttled path while editing). */
export async function writeJournal(entry: JournalData): Promise<void> {
  await (await local()).journal.put({ key: "current", ...entry });
}

function isQuotaError(error: unknown): boolean {
  return (
    error instanceof DOMException &&
    (error.name === "QuotaExceededError" || error.name === "NS_ERROR_DOM_QUOTA_REACHED")
  );
}

/**
 * On page hide there is no time for IndexedDB's asynchronous write, so the journal goes to
 * localStorage synchronously when it fits its 5 MB limit. A workflow too large for it, or a
 * quota error, switches to IndexedDB (SPEC §4). Returns where the entry went.
 */
export function writeExitJournal(
  entry: JournalData,
  storage: Storage = localStorage,
  fallback: (entry: JournalData) => Promise<void> = writeJournal,
): "localStorage" | "indexedDB" {
  const text = JSON.stringify(entry);
  const bytes = utf8ByteLength(text);
  if (bytes > LIMITS.storage.localStorageQuotaBytes) {
    console.warn(
      `Workflow too large for localStorage (${(bytes / MB).toFixed(1)} MB)... using IndexedDB`,
    );
  } else {
    try {
      storage.setItem(EXIT_KEY, text);
      return "localStorage";
    } catch (error) {
      if (!isQuotaError(error)) throw error;
      storage.removeItem(EXIT_KEY);
      console.warn(
        "localStorage quota exceeded. Please delete some workflows or use IndexedDB storage.",
      );
    }
  }
  fallback(entry).catch((error) => console.error("Could not journal unsaved edits", error));
  return "indexedDB";
}

/** The newest journal entry of either store, or null. */
export async function readJournal(storage: Storage = localStorage): Promise<JournalData | null> {
  const stored = (await mayHoldLocalData())
    ? ((await (await local()).journal.get("current")) ?? null)
    : null;
  let quick: JournalData | null = null;
  try {
    const text = storage.getItem(EXIT_KEY);
    quick = text ? (JSON.parse(text) as JournalData) : null;
  } catch {
    quick = null; // a damaged entry: IndexedDB's is the one to trust
  }
  if (!quick) return stored;
  if (!stored) return quick;
  return quick.writtenAt >= stored.writtenAt ? quick : stored;
}

/** Forgets unsaved edits (after a save, load or a new workflow). */
export async function clearJournal(storage: Storage = localStorage): Promise<void> {
  storage.removeItem(EXIT_KEY);
  await (await local()).journal.delete("current");
}
