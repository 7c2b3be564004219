import type { SavedWorkflow, WorkflowRow } from "@atelier/core";
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
 * Writes the device copy in a task of its own when the browser is idle: IndexedDB still
 * clones 10 MB of text on this thread (~35 ms), which must not join the open's tasks. A
 * copy written meanwhile (a save) is newer and stays.
 */
function keepCopyWhenIdle(copy: LocalWorkflow) {
  const write = () =>
    void local()
      .then((db) =>
        db.transaction("rw", db.workflows, async () => {
          // Newer copies found by the updatedAt index alone: reading the stored record to
          // compare would clone its megabytes back first.
          const newer = await db.workflows.where("updatedAt").above(copy.updatedAt).primaryKeys();
          if (!newer.includes(copy.id)) await db.workflows.put(copy);
        }),
      )
      .catch((error: unknown) => console.warn("Could not keep a device copy", error));
  if (typeof requestIdleCallback === "function") requestIdleCallback(write, { timeout: 2000 });
  else setTimeout(write, 50);
}

/**
 * Reads `GET /api/workflows/:id`'s text in steps that each stay short (parse about 1 MB of
 * nodes at a time, then checks of 250 nodes at a time), and keeps this device's copy as that text: IndexedDB clones a
 * string in a memcpy, where the parsed object took ~40 ms per 5 MB on the editor's thread.
 * `keepCopy: false` for an answer from the in-memory cache: it may be older than the copy.
 */
export async function readAnswer(text: string, { keepCopy = true } = {}): Promise<ReadAnswer> {
  const { nextTask, readGraphInSteps } = await import("./read-graph.ts");
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

/** A device copy's saved data: kept as data (this browser's workflows) or as the answer's text. */
export function copyData(copy: { data?: SavedWorkflow; text?: string }): SavedWorkflow | null {
  if (copy.data) return copy.data;
  if (!copy.text) return null;
  return (JSON.parse(copy.text) as { workflow: WorkflowRow }).workflow.data as SavedWorkflow;
}
