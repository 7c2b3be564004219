import { randomUUID } from "node:crypto";
import type { GenerationProvider, ProviderStatus } from "../provider.ts";
import { ProviderError } from "../provider.ts";
import { FFMPEG_NODE_TYPES } from "./ffmpeg/merge.ts";
import type { LocalRequest, ReadMedia } from "./local-request.ts";
import { runLocally } from "./run-local.ts";

export interface LocalProviderOptions {
  /** Reads an input's bytes (our storage directly; other URLs through the safe fetcher). */
  readMedia: ReadMedia;
  /** A local ffmpeg binary, when the server has one (merges are then done for real). */
  ffmpeg?: string | null;
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
  // Results being made in this process, so a cancel can stop their ffmpeg.
  const running = new Map<string, AbortController>();
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
    async status(endpoint, requestId): Promise<ProviderStatus> {
      // Real work (an ffmpeg merge) needs no simulated queue: it runs as the result is fetched.
      if (options.ffmpeg && FFMPEG_NODE_TYPES.has(endpoint.replace(/^local\//, "")))
        return { status: "COMPLETED", queuePosition: null, progress: 100, logs: [] };
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
    async result(_endpoint, requestId, context) {
      if (!context?.request) throw new ProviderError("Local result without its request", "fatal");
      const controller = new AbortController();
      running.set(requestId, controller);
      try {
        return await runLocally(context.request as unknown as LocalRequest, options.readMedia, {
          ffmpeg: options.ffmpeg ?? null,
          signal: controller.signal,
        });
      } finally {
        running.delete(requestId);
      }
    },
    async cancel(_endpoint, requestId) {
      // Only an ffmpeg merge runs anywhere; otherwise the job row alone holds the state.
      running.get(requestId)?.abort();
    },
  };
}
