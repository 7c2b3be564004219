import type { RunRequest, RunSummary, RunView } from "@atelier/core";
import { call } from "./api.ts";

/**
 * Server-side runs (ADR 0010): start one, read it, and control the user's queue. Apart from
 * `api` so the editor's first load does not carry them (only lazy parts use them).
 */
export const runsApi = {
  startRun: (body: RunRequest) => call<{ run: RunSummary }>("POST", "/api/runs", body),
  getRun: (id: string) => call<{ run: RunView }>("GET", `/api/runs/${encodeURIComponent(id)}`),
  queue: () => call<{ paused: boolean; runs: RunSummary[] }>("GET", "/api/runs"),
  cancelRun: (id: string) =>
    call<{ run: RunView }>("POST", `/api/runs/${encodeURIComponent(id)}/cancel`, {}),
  retryRun: (id: string, nodes?: string[]) =>
    call<{ run: RunSummary }>(
      "POST",
      `/api/runs/${encodeURIComponent(id)}/retry`,
      nodes ? { nodes } : {},
    ),
  moveRun: (id: string, direction: "up" | "down") =>
    call<{ paused: boolean; runs: RunSummary[] }>(
      "POST",
      `/api/runs/${encodeURIComponent(id)}/move`,
      { direction },
    ),
  cancelAllRuns: () => call<{ cancelled: number }>("POST", "/api/runs/cancel-all", {}),
  setQueuePaused: (paused: boolean) =>
    call<{ paused: boolean }>("PUT", "/api/queue/state", { paused }),
  workflowRuns: (workflowId: string, cursor?: string | null) =>
    call<{ runs: RunSummary[]; nextCursor: string | null }>(
      "GET",
      `/api/workflows/${encodeURIComponent(workflowId)}/runs${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`,
    ),
};

export type RunsApi = typeof runsApi;
