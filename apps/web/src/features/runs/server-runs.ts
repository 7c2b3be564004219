import type { RunSummary, RunView } from "@atelier/core";
import { ApiError, type api } from "../../services/api.ts";
import type { RunsApi } from "../../services/runs-api.ts";
import type { DocumentStore } from "../document/store.ts";
import type { CanvasNodeData } from "../document/types.ts";
import { useWorkspace } from "../workspace/store.ts";
import { applyRun } from "./apply-run.ts";
import type { EventSourceFactory } from "./job-stream.ts";
import { createRunFollower } from "./run-follower.ts";
import { runSignature } from "./run-graph.ts";
import { runRequest } from "./run-request.ts";
import type { RunsStore } from "./runs-store.ts";

export interface ServerRunsDeps {
  api: Pick<RunsApi, "startRun" | "getRun" | "queue" | "cancelRun"> &
    Partial<Pick<typeof api, "ensureSession">>;
  runs: RunsStore;
  write(nodeId: string, patch: Partial<CanvasNodeData>): void;
  showError(message: string): void;
  onComplete?: (nodeId: string, type: string) => void;
  openEvents?: EventSourceFactory | null;
  /** A followed run changed (the queue panel reads the queue again). */
  onChange?: () => void;
}

export type ServerRunStart = { ok: true; runId: string } | { ok: false; error: string };

/**
 * The editor as a client of server-side runs (ADR 0010): "Run all" and "Run to here" start a
 * run on the server and follow it; the results land in the document as the steps end, and
 * a reloaded or second tab picks the user's active runs up again.
 */
export function createServerRuns(documents: DocumentStore, deps: ServerRunsDeps) {
  const seen = new Map<string, string>();
  const data = (nodeId: string) =>
    documents.getState().nodes.find((node) => node.id === nodeId)?.data;
  const apply = (run: RunView | RunSummary) => {
    deps.onChange?.();
    applyRun(
      run as RunView,
      {
        data,
        write: deps.write,
        signature: (nodeId) => runSignature(documents, nodeId),
        runs: deps.runs,
        ...(deps.onComplete ? { onComplete: deps.onComplete } : {}),
      },
      seen,
    );
  };
  const follower = createRunFollower(apply, {
    getRun: async (id) => (await deps.api.getRun(id)).run,
    ...(deps.openEvents !== undefined ? { openEvents: deps.openEvents } : {}),
  });

  return {
    /** Starts a run of the open document on the server and follows it. */
    async start(target: string | null): Promise<ServerRunStart> {
      const { nodes, edges } = documents.getState();
      try {
        if (!useWorkspace.getState().user) await deps.api.ensureSession?.();
        const body = runRequest(nodes, edges, useWorkspace.getState(), target);
        const { run } = await deps.api.startRun(body);
        apply(run);
        follower.follow(run.id);
        return { ok: true, runId: run.id };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        deps.showError(message);
        return { ok: false, error: message };
      }
    },

    /** After a load: follows the user's active runs of this workflow (or of no workflow). */
    async resume(workflowId: string | null) {
      follower.reset();
      seen.clear();
      try {
        // Runs of this cloud workflow started elsewhere (a second tab, a script) land here too.
        if (workflowId) follower.watch((run) => run.workflowId === workflowId);
        const { runs } = await deps.api.queue();
        deps.onChange?.();
        for (const run of runs) {
          if (run.workflowId !== workflowId) continue;
          apply(run);
          follower.follow(run.id);
        }
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
      }
    },

    /** Cancels a server-side run (a step's Cancel cancels its whole run). */
    async cancel(runId: string) {
      try {
        apply((await deps.api.cancelRun(runId)).run);
      } catch (error) {
        deps.showError(error instanceof Error ? error.message : String(error));
      }
    },

    dispose: () => follower.close(),
  };
}

export type ServerRuns = ReturnType<typeof createServerRuns>;
