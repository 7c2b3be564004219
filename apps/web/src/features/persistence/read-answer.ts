import type { SavedWorkflow, WorkflowRow } from "@atelier/core";
import { nextTask } from "../../services/next-task.ts";
import { whenIdle } from "../../services/when-idle.ts";
import type { DocumentGraph } from "../document/types.ts";
import { local } from "./document-io.ts";
import type { LocalWorkflow } from "./local-db.ts";
import { parseInSteps } from "./parse-in-steps.ts";

/** A cloud workflow's answer read for the editor: its row and checked graph. */
export interface ReadAnswer {
  workflow: WorkflowRow;
  graph?: DocumentGraph;
  recovered?: boolean;
}

/**
 * Characters of text per piece of a device copy's Blob, each encoded in a task of its own
 * (1 MB pieces still made 30–70 ms tasks after a 10 MB open, with the heap at its fullest).
 */
const COPY_PIECE_CHARS = 1 << 18;

/**
 * A text as a Blob made 256 KB a task. IndexedDB stores a Blob by reference, where a string
 * is cloned on this thread in one go (a 50–80 ms task for 10 MB after an open).
 */
export async function textBlob(text: string): Promise<Blob> {
  const pieces: Blob[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + COPY_PIECE_CHARS);
    // Never between the two halves of a surrogate pair (an emoji in a prompt).
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    if (at > 0) await nextTask();
    pieces.push(new Blob([text.slice(at, end)]));
    at = end;
  }
  return new Blob(pieces, { type: "application/json" });
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** Writes a device copy made at `copy.updatedAt`, unless a newer one was written meanwhile. */
export async function putCopyUnlessNewer(
  copy: { id: string; name: string; updatedAt: number },
  kept: { blob: Blob } | { text: string } | { data: SavedWorkflow },
): Promise<void> {
  const db = await local();
  await db.transaction("rw", db.workflows, async () => {
    // Newer copies found by the updatedAt index alone: reading the stored record to
    // compare would clone its megabytes back first.
    const newer = await db.workflows.where("updatedAt").above(copy.updatedAt).primaryKeys();
    if (!newer.includes(copy.id))
      await db.workflows.put({ id: copy.id, name: copy.name, updatedAt: copy.updatedAt, ...kept });
  });
}

/**
 * Writes the device copy when the browser is idle, as a Blob made in short steps, so that
 * no part of it joins the open's tasks. A copy written meanwhile (a save) is newer and stays.
 */
function keepCopyWhenIdle(copy: { id: string; name: string; text: string; updatedAt: number }) {
  const put = (kept: { blob: Blob } | { text: string }) => putCopyUnlessNewer(copy, kept);
  // A browser that will not keep a Blob in IndexedDB (some private modes) keeps the text.
  const write = async () =>
    put({ blob: await textBlob(copy.text) }).catch(() => put({ text: copy.text }));
  whenIdle(
    () =>
      void write().catch((error: unknown) => console.warn("Could not keep a device copy", error)),
  );
}

/**
 * Reads `GET /api/workflows/:id`'s text in steps that each stay short (parse about 1 MB of
 * nodes at a time, then checks of 250 nodes at a time), and keeps this device's copy as that
 * text (a Blob): cloning the parsed object took ~40 ms per 5 MB on the editor's thread.
 * `keepCopy: false` for an answer from the in-memory cache: it may be older than the copy.
 */
export async function readAnswer(text: string, { keepCopy = true } = {}): Promise<ReadAnswer> {
  const { readGraphInSteps } = await import("./read-graph.ts");
  // Decoding the answer was a task of its own; parsing a large one takes several.
  await nextTask();
  const { workflow } = await parseInSteps<{ workflow: WorkflowRow }>(
    text,
    '"nodes":[',
    (answer) => (answer.workflow?.data as SavedWorkflow | null)?.nodes,
    nextTask,
  );
  const data = workflow.data as SavedWorkflow | null;
  if (!data) return { workflow };
  const { graph, recovered } = await readGraphInSteps(data);
  if (keepCopy)
    keepCopyWhenIdle({ id: workflow.id, name: workflow.name, text, updatedAt: Date.now() });
  await nextTask();
  return { workflow, graph, recovered };
}

/**
 * A device copy's saved data: kept as data (this browser's workflows and copies written
 * after a save) or as the open's answer (a Blob; a string in copies from earlier versions).
 */
export async function copyData(copy: LocalWorkflow): Promise<SavedWorkflow | null> {
  if (copy.data) return copy.data;
  const text = copy.blob ? await copy.blob.text() : copy.text;
  if (!text) return null;
  return (JSON.parse(text) as { workflow: WorkflowRow }).workflow.data as SavedWorkflow;
}
