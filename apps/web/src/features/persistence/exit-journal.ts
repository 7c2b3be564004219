import { serializeWorkflow, type WorkflowDocument } from "@atelier/core";
import { CLEAN_EXIT_KEY, type JournalData, writeExitJournal } from "./journal.ts";

/*
 * The page-hide journal write must be synchronous: this module is loaded with the first
 * edit (persistence.ts), not with the editor's first paint.
 */

/**
 * Page hide: the open workflow's journal written synchronously (journal.ts) and a normal
 * close marked, so the next start brings the edits back silently.
 */
export function journalOnExit(
  document: WorkflowDocument,
  entry: Omit<JournalData, "data" | "text">,
) {
  writeExitJournal({ ...entry, data: serializeWorkflow(document) });
  localStorage.setItem(CLEAN_EXIT_KEY, "1");
}
