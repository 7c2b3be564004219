import type { SavedWorkflow, WorkflowDocument } from "@atelier/core";
import type { DocumentStore } from "../document/store.ts";
import { useWorkspace } from "../workspace/store.ts";
import { LOCAL_DB_NAME } from "./local-db-name.ts";

/** The workflow to open on the next start. */
export const LAST_WORKFLOW_KEY = "atelier.lastWorkflow";

/** Where a workflow id is saved: this browser (`local-…`) or the cloud. */
export const locationOf = (workflowId: string | null) =>
  workflowId ? (workflowId.startsWith("local-") ? ("local" as const) : ("cloud" as const)) : null;

/** IndexedDB code loads after the editor has drawn (it is not needed for the first paint). */
export const local = () => import("./local-db.ts").then((module) => module.localDb);

/**
 * Whether this browser may hold Atelier's IndexedDB database: false only when the browser
 * lists its databases and ours is not among them (a first visit), so reading what is stored
 * needs no database code then. True where the browser cannot say.
 */
export async function mayHoldLocalData(): Promise<boolean> {
  if (typeof indexedDB === "undefined" || typeof indexedDB.databases !== "function") return true;
  try {
    return (await indexedDB.databases()).some((database) => database.name === LOCAL_DB_NAME);
  } catch {
    return true;
  }
}

const currentDocument = (documents: DocumentStore): WorkflowDocument => {
  const { nodes, edges } = documents.getState();
  const { name, workflowId } = useWorkspace.getState();
  return { nodes, edges, metadata: { name, id: workflowId } };
};

// The worker bridge loads with the first save or journal write.
const bridge = () => import("./serializer.ts").then((module) => module.serializer);

/** The document as SPEC's saved form, named after the workspace (serialized off the main thread). */
export async function serializeCurrent(documents: DocumentStore): Promise<SavedWorkflow> {
  const document = currentDocument(documents); // read now: the import may yield to edits
  return (await bridge()).serialize(document);
}

/** The same saved form as JSON text, never parsed here: what the journal keeps. */
export async function serializeCurrentText(documents: DocumentStore): Promise<string> {
  const document = currentDocument(documents);
  return (await bridge()).serializeText(document);
}
