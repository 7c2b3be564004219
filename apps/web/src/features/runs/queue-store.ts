import type { RunSummary } from "@atelier/core";
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";

/** The user's server-side queue (ADR 0010): paused or not, and the active runs in order. */
export interface ServerQueueState {
  paused: boolean;
  runs: RunSummary[];
}

export const serverQueue = createStore<ServerQueueState>()(() => ({ paused: false, runs: [] }));

export function useServerQueue<T>(select: (state: ServerQueueState) => T): T {
  return useStore(serverQueue, select);
}
