import { LIMITS, type NodeQueueStatus } from "@atelier/core";
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";

/** One node's queue entry (SPEC §3 "Queue status per node"), plus what the panel shows. */
export interface RunEntry extends NodeQueueStatus {
  nodeId: string;
  /** The node type that runs. */
  model: string;
  /** The provider's error text, SPEC's timeout message, or null. */
  error: string | null;
  /** The server-side run this node is a step of (its Cancel cancels the run). */
  runId?: string;
}

export interface RunsState {
  /** Entries by node id; an update makes a new object only for its own node. */
  runs: Record<string, RunEntry>;
  /**
   * Creates or updates a node's entry. A CANCELLED entry is removed after 1 s and a
   * COMPLETED one after 2 s (SPEC §4, §9); a new request for the node cancels that removal.
   */
  upsert(entry: Partial<RunEntry> & Pick<RunEntry, "nodeId">): void;
  remove(nodeId: string): void;
  /** Drops every entry (a workflow load). */
  clear(): void;
}

export type RunsStore = ReturnType<typeof createRunsStore>;

const REMOVE_AFTER: Partial<Record<RunEntry["status"], number>> = {
  CANCELLED: LIMITS.timing.cancelledQueueEntryRemoveMs,
  COMPLETED: LIMITS.timing.completedQueueEntryRemoveMs,
};

const blank = (nodeId: string): RunEntry => ({
  nodeId,
  model: "",
  requestId: "",
  endpoint: "",
  status: "IN_QUEUE",
  queuePosition: null,
  logs: [],
  progress: null,
  startTime: Date.now(),
  lastUpdate: Date.now(),
  error: null,
});

/** Session state of runs (DESIGN §4.5: not part of the document, not undoable, not saved). */
export function createRunsStore() {
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const stopTimer = (nodeId: string) => {
    clearTimeout(timers.get(nodeId));
    timers.delete(nodeId);
  };

  return createStore<RunsState>()((set, get) => ({
    runs: {},

    upsert(patch) {
      const before = get().runs[patch.nodeId];
      const entry: RunEntry = { ...(before ?? blank(patch.nodeId)), ...patch };
      if (before?.requestId !== entry.requestId) stopTimer(entry.nodeId);
      set({ runs: { ...get().runs, [entry.nodeId]: entry } });
      const delay = REMOVE_AFTER[entry.status];
      if (delay === undefined || timers.has(entry.nodeId)) return;
      timers.set(
        entry.nodeId,
        setTimeout(() => {
          timers.delete(entry.nodeId);
          if (get().runs[entry.nodeId]?.requestId === entry.requestId) get().remove(entry.nodeId);
        }, delay),
      );
    },

    remove(nodeId) {
      stopTimer(nodeId);
      if (!(nodeId in get().runs)) return;
      const { [nodeId]: _gone, ...rest } = get().runs;
      set({ runs: rest });
    },

    clear() {
      for (const nodeId of [...timers.keys()]) stopTimer(nodeId);
      set({ runs: {} });
    },
  }));
}

/** The tab's runs; the runner writes it, nodes and the queue panel read it. */
export const runsStore = createRunsStore();

/** One node's queue entry, or undefined; re-renders only when that node's entry changes. */
export function useNodeRun(nodeId: string, store: RunsStore = runsStore): RunEntry | undefined {
  return useStore(store, (state) => state.runs[nodeId]);
}

/** True while the node's request waits in the queue; a boolean, so it re-renders on a flip only. */
export function useNodeQueued(nodeId: string, store: RunsStore = runsStore): boolean {
  return useStore(store, (state) => state.runs[nodeId]?.status === "IN_QUEUE");
}

/** True while the tab has any queue entry (mounts the queue panel). */
export function useHasRuns(store: RunsStore = runsStore): boolean {
  return useStore(store, (state) => Object.keys(state.runs).length > 0);
}

/** Every entry by node id (the queue panel); re-renders on any run change. */
export function useRuns(store: RunsStore = runsStore): Record<string, RunEntry> {
  return useStore(store, (state) => state.runs);
}

/** True while a request is queued or running. */
export const isActive = (entry: RunEntry | undefined): boolean =>
  entry?.status === "IN_QUEUE" || entry?.status === "IN_PROGRESS";
