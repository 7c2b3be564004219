import { LIMITS, type SavedWorkflow, WORKFLOW_ERRORS } from "@atelier/core";
import { ApiError, api } from "../../services/api.ts";
import { local } from "./document-io.ts";
import { WorkflowCache } from "./workflow-cache.ts";

/** Cloud workflows opened lately, for a slow or missing connection. */
const recentlyLoaded = new WorkflowCache<{ name: string; data: SavedWorkflow }>();

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
  data: SavedWorkflow;
  fromDevice: boolean;
}

/** A copy of each cloud workflow stays on this device, for slow or missing connections. */
export async function keepDeviceCopy(id: string, name: string, data: SavedWorkflow) {
  await (await local()).workflows.put({ id, name, data, updatedAt: Date.now() });
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
    if (!found) throw missing();
    const base = { id, name: found.name, data: found.data, basedOn: null };
    return { ...base, location: "local", fromDevice: true };
  }
  onStep(LOAD_STEPS.cloud);
  const cloud = await Promise.race([
    api.getWorkflow(id).then(
      (answer) => answer.workflow,
      (error: unknown) => {
        if (error instanceof ApiError && error.status !== 0) throw error;
        return null; // unreachable: try this device's copy
      },
    ),
    new Promise<null>((resolve) =>
      setTimeout(() => resolve(null), LIMITS.timing.cloudLoadTimeoutMs),
    ),
  ]);
  if (cloud?.data) {
    await keepDeviceCopy(id, cloud.name, cloud.data);
    recentlyLoaded.set(id, { name: cloud.name, data: cloud.data }, cloud.data_size_bytes);
    const base = { id, name: cloud.name, data: cloud.data, basedOn: cloud.updated_at };
    return { ...base, location: "cloud", fromDevice: false };
  }
  onStep(LOAD_STEPS.fallback);
  const copy = recentlyLoaded.get(id) ?? (await (await local()).workflows.get(id));
  if (!copy) throw missing();
  const base = { id, name: copy.name, data: copy.data, basedOn: null };
  return { ...base, location: "cloud", fromDevice: true };
}
