import { randomUUID } from "node:crypto";
import type { GenerationProvider, ProviderStatus } from "../provider.ts";
import { ProviderError } from "../provider.ts";
import { type LocalRequest, type ReadMedia, runLocally } from "./run-local.ts";

export interface LocalProviderOptions {
  /** Reads an input's bytes (our storage directly; other URLs through the safe fetcher). */
  readMedia: ReadMedia;
  /** Length of one simulated queue or progress step; tests make it short. */
  stepMs?: number;
  now?: () => number;
}

const QUEUE_STEPS = 2;
const PROGRESS_STEPS = 4;

/**
 * The offline provider: no key, no network. A request id carries its submit time, so its
 * queue position and progress follow from the clock alone and survive a restart; the
 * result is made from the submitted request, which the job row keeps.
 */
export function createLocalProvider(options: LocalProviderOptions): GenerationProvider {
  const stepMs = options.stepMs ?? 400;
  const now = options.now ?? Date.now;
  const submittedAt = (requestId: string) => {
    const at = Number(requestId.split("-")[1]);
    if (!Number.isFinite(at)) throw new ProviderError("Unknown local request", "fatal");
    return at;
  };
  return {
    id: "local",
    buildInput: (run) => ({ nodeType: run.nodeType, inputs: run.inputs, params: run.params }),
    async submit() {
      return { requestId: `local-${now()}-${randomUUID()}` };
    },
    async status(_endpoint, requestId): Promise<ProviderStatus> {
      const step = Math.floor((now() - submittedAt(requestId)) / stepMs);
      if (step < QUEUE_STEPS)
        return { status: "IN_QUEUE", queuePosition: QUEUE_STEPS - step, progress: null, logs: [] };
      const done = step - QUEUE_STEPS;
      if (done < PROGRESS_STEPS) {
        const progress = Math.round(((done + 1) / (PROGRESS_STEPS + 1)) * 100);
        const logs = [{ message: `Rendering offline (step ${done + 1} of ${PROGRESS_STEPS})` }];
        return { status: "IN_PROGRESS", queuePosition: null, progress, logs };
      }
      return { status: "COMPLETED", queuePosition: null, progress: 100, logs: [] };
    },
    async result(_endpoint, _requestId, context) {
      if (!context?.request) throw new ProviderError("Local result without its request", "fatal");
      return runLocally(context.request as unknown as LocalRequest, options.readMedia);
    },
    async cancel() {
      // Nothing runs anywhere: the job row alone holds the state.
    },
  };
}
