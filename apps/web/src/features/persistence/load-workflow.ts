import { LIMITS, type SavedWorkflow, WORKFLOW_ERRORS } from "@atelier/core";
import { ApiError, api } from "../../services/api.ts";
import { whenIdle } from "../../services/when-idle.ts";
import type { DocumentGraph } from "../document/types.ts";
import { local } from "./document-io.ts";
import { copyData, putCopyUnlessNewer, readAnswer } from "./read-answer.ts";
import { WorkflowCache } from "./workflow-cache.ts";

/** Cloud workflows opened lately (their answers' text), for a slow or missing connection. */
const recentlyLoaded = new WorkflowCache<string>();

/** Step messages shown while a workflow loads. */
export const LOAD_STEPS = {
  device: "Reading the workflow from this browser…",
  cloud: "Fetching the workflow from the cloud…",
  fallback: "The server is slow: opening the copy kept on this device…",
  check: "Checking the workflow's data…",
  draw: "Drawing the canvas…",
} as const;

export interface FetchedWorkflow {
  id: string;
  name: string;
  location: "local" | "cloud";
  /** Cloud only: the version the edits start from (null when opened from the device copy). */
  basedOn: string | null;
  /** A device copy still to check, or a cloud answer already checked (in short steps). */
  data?: SavedWorkflow;
  read?: { graph: DocumentGraph; recovered: boolean };
  fromDevice: boolean;
}

/**
 * After a cloud save: the device copy of what was saved is written once the browser is idle
 * (the save is done without waiting for it), as the Blob `blob()` makes in short steps, or
 * as data where a Blob cannot be kept. A copy written meanwhile (a later save) is newer and
 * stays. Answers when the copy is written.
 */
export function keepSavedCopyWhenIdle(
  id: string,
  name: string,
  data: SavedWorkflow,
  blob: () => Promise<Blob>,
): Promise<void> {
  // Saved: the answer cached at open is older than this copy now.
  recentlyLoaded.delete(id);
  const copy = { id, name, updatedAt: Date.now() };
  return new Promise((resolve) =>
    whenIdle(() => {
      blob()
        .then((made) => putCopyUnlessNewer(copy, { blob: made }))
        .catch(() => putCopyUnlessNewer(copy, { data }))
        .catch((error: unknown) => console.warn("Could not keep a device copy", error))
        .finally(resolve);
    }),
  );
}

/**
 * Reads a workflow from this browser or the cloud. A cloud answer slower than 5 s, or no
 * answer, falls back to this device's copy (SPEC §4).
 */
export async function fetchWorkflow(
  id: string,
  onStep: (message: string) => void,
): Promise<FetchedWorkflow> {
  const missing = () => new Error(WORKFLOW_ERRORS.notInAnyStorage(id));
  if (id.startsWith("local-")) {
    onStep(LOAD_STEPS.device);
    const found = await (await local()).workflows.get(id);
    const data = found && (await copyData(found));
    if (!found || !data) throw missing();
    const base = { id, name: found.name, data, basedOn: null };
    return { ...base, location: "local", fromDevice: true };
  }
  onStep(LOAD_STEPS.cloud);
  const text = await Promise.race([
    api.getWorkflowText(id).catch((error: unknown) => {
      if (error instanceof ApiError && error.status !== 0) throw error;
      return null; // unreachable: try this device's copy
    }),
    new Promise<null>((resolve) =>
      setTimeout(() => resolve(null), LIMITS.timing.cloudLoadTimeoutMs),
    ),
  ]);
  const fromAnswer = async (answerText: string, fromDevice: boolean) => {
    onStep(LOAD_STEPS.check);
    const { workflow, graph, recovered } = await readAnswer(answerText, { keepCopy: !fromDevice });
    if (!graph) return null;
    const read = { graph, recovered: recovered ?? false };
    const basedOn = fromDevice ? null : workflow.updated_at;
    return { id, name: workflow.name, read, basedOn, location: "cloud", fromDevice } as const;
  };
  const opened = text === null ? null : await fromAnswer(text, false);
  if (text !== null && opened) {
    recentlyLoaded.set(id, text, text.length);
    return opened;
  }
  onStep(LOAD_STEPS.fallback);
  const cached = recentlyLoaded.get(id);
  const fromCache = cached === null ? null : await fromAnswer(cached, true);
  if (fromCache) return fromCache;
  const copy = await (await local()).workflows.get(id);
  if (!copy) throw missing();
  // A copy kept as the open's answer is read as the answer is, in short steps (parsed at
  // once and checked in one go, a warm open of 5 MB made tasks of 100 ms and more).
  const copyText = copy.data ? null : copy.blob ? await copy.blob.text() : copy.text;
  if (copyText) {
    const fromCopy = await fromAnswer(copyText, true);
    if (!fromCopy) throw missing();
    return fromCopy;
  }
  const data = await copyData(copy);
  if (!data) throw missing();
  onStep(LOAD_STEPS.check);
  const read = await (await import("./read-graph.ts")).readGraphInSteps(data);
  const base = { id, name: copy.name, read, basedOn: null };
  return { ...base, location: "cloud", fromDevice: true };
}
