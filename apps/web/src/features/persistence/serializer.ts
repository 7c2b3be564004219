import {
  chunkWorkflow,
  LIMITS,
  type SavedWorkflow,
  serializeWorkflow,
  type WorkflowChunk,
  type WorkflowDocument,
} from "@atelier/core";
import { type Remote, wrap } from "comlink";
import type { SerializeWorkerApi } from "./serialize.worker.ts";
import { stringifyInSteps } from "./stringify-in-steps.ts";

export const WORKER_TIMEOUTS = {
  serialize: { ms: LIMITS.timing.workerSerializeTimeoutMs, message: "Serialization timeout" },
  chunk: { ms: LIMITS.timing.workerChunkTimeoutMs, message: "Chunking timeout" },
  clone: { ms: LIMITS.timing.workerCloneTimeoutMs, message: "Clone timeout" },
} as const;

/** Rejects with `message` when `promise` takes longer than `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

let worker: Remote<SerializeWorkerApi> | null | undefined;
function remote(): Remote<SerializeWorkerApi> | null {
  if (worker !== undefined) return worker;
  try {
    worker =
      typeof Worker === "undefined"
        ? null
        : wrap<SerializeWorkerApi>(
            new Worker(new URL("./serialize.worker.ts", import.meta.url), { type: "module" }),
          );
  } catch {
    worker = null;
  }
  return worker;
}

/**
 * Runs a step in the worker within its SPEC timeout; a worker failure (or timeout) falls
 * back to the main thread, so a save never depends on the worker.
 */
async function inWorker<T>(
  step: keyof typeof WORKER_TIMEOUTS,
  run: (api: Remote<SerializeWorkerApi>) => Promise<T>,
  fallback: () => T,
): Promise<T> {
  const api = remote();
  if (!api) return fallback();
  try {
    return await withTimeout(run(api), WORKER_TIMEOUTS[step].ms, WORKER_TIMEOUTS[step].message);
  } catch (error) {
    console.warn(`${(error as Error).message}; serializing on the main thread instead`);
    return fallback();
  }
}

/** The document posted to the worker as JSON, written in steps (no long task here). */
const documentJson = (document: WorkflowDocument) =>
  stringifyInSteps(document as unknown as Record<string, unknown>);

export const serializer = {
  serialize(document: WorkflowDocument): Promise<SavedWorkflow> {
    return inWorker(
      "serialize",
      async (api) => JSON.parse(await api.serialize(await documentJson(document))) as SavedWorkflow,
      () => serializeWorkflow(document),
    );
  },
  /** The saved form as JSON text: for keeping as is (the journal), with no parse on this thread. */
  serializeText(document: WorkflowDocument): Promise<string> {
    return inWorker(
      "serialize",
      async (api) => api.serialize(await documentJson(document)),
      () => JSON.stringify(serializeWorkflow(document)),
    );
  },
  chunk(saved: SavedWorkflow): Promise<WorkflowChunk[]> {
    return inWorker(
      "chunk",
      (api) => api.chunk(JSON.stringify(saved)),
      () => chunkWorkflow(saved),
    );
  },
  clone<T>(value: T): Promise<T> {
    return inWorker(
      "clone",
      async (api) => (await api.clone(JSON.stringify(value))) as T,
      () => structuredClone(value),
    );
  },
};
