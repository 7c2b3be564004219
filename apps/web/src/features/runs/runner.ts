import {
  COST_MESSAGES,
  gatherInputs,
  LIMITS,
  parseAutomationItemId,
  RUN_MESSAGES,
  TERMINAL_QUEUE_STATUSES,
  upstreamOf,
} from "@atelier/core";
import { ApiError, type api, type JobStatus } from "../../services/api.ts";
import type { RunsApi } from "../../services/runs-api.ts";
import { notify } from "../../ui/notify.ts";
import type { DocumentStore } from "../document/store.ts";
import type { CanvasNodeData } from "../document/types.ts";
import { useWorkspace } from "../workspace/store.ts";
import type { Automation } from "./automation.ts";
import { createJobStream, type JobStreamOptions } from "./job-stream.ts";
import type { HistoryEntry } from "./ResultHistory.tsx";
import { type GraphRun, runGraph, runSignature } from "./run-graph.ts";
import { isRunnable } from "./runnable.ts";
import { isActive, type RunsStore, runsStore } from "./runs-store.ts";
import { createServerRuns, type ServerRunStart } from "./server-runs.ts";

export interface RunnerDeps {
  api: Pick<typeof api, "generate" | "queueStatus" | "cancelJob" | "listJobs"> &
    Partial<Pick<typeof api, "ensureSession">>;
  /** Server-side runs (Run all, Run to here); without it those are sequenced by the tab. */
  runsApi?: Pick<RunsApi, "startRun" | "getRun" | "queue" | "cancelRun">;
  /** Default: the tab's `runsStore`. */
  runs?: RunsStore;
  /** The workflow runs are stored under; default: the open cloud workflow's id, else null. */
  workflowId?: () => string | null;
  /** Default: a toast (canvas/notify.ts). */
  showError?: (message: string) => void;
  /** Called once per run that completes while the tab watches it (notifications). */
  onComplete?: (nodeId: string, type: string) => void;
  /** Stream options other than `status` (tests inject their EventSource and timers). */
  stream?: Omit<JobStreamOptions, "status">;
  newKey?: () => string;
  /** A server-side run changed (the queue panel reads the queue again). */
  onRunChange?: () => void;
  /**
   * Before Run all / Run to here, show the run's estimated cost and wait for a yes when it is
   * above the user's threshold (the editor does; tests leave it out).
   */
  askCost?: boolean;
}

export interface Runner {
  /** Gathers the node's inputs and starts it; a missing input only marks the node. */
  run(nodeId: string): Promise<void>;
  /** Cancels the node's queued or running request. */
  cancel(nodeId: string): Promise<void>;
  /**
   * After a workflow load: forgets the previous workflow's entries, follows the jobs still
   * queued or running, and applies the ends of jobs that finished while the page was away.
   */
  resume(workflowId: string | null): Promise<void>;
  isRunnable(type: string | undefined): boolean;
  /**
   * "Run all" (target null) or "Run to here": a run on the server (ADR 0010), followed
   * here; a graph with an image automation in it is still sequenced by the tab.
   */
  runGraph(target: string | null): Promise<GraphRun | ServerRunStart>;
  /** Closes the job stream. */
  dispose(): void;
}

/** 128 random bits as hex (crypto.randomUUID needs a secure context; this does not). */
const randomKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, "0"),
  ).join("");

const messageOf = (error: unknown) =>
  error instanceof Error && error.message ? error.message : RUN_MESSAGES.failed;

/**
 * The run commands (DESIGN §4.7): gather → POST /api/generate/:type → follow the job on the
 * tab's job stream. Run state reaches the document through `applyExternal` for one node at
 * a time (not undoable); queue entries live in the runs store.
 */
export function createRunner(documents: DocumentStore, deps: RunnerDeps): Runner {
  const runs = deps.runs ?? runsStore;
  const showError = deps.showError ?? notify.error;
  const workflowId =
    deps.workflowId ??
    (() => {
      const { workflowId: id, location } = useWorkspace.getState();
      return location === "cloud" ? id : null;
    });
  const newKey = deps.newKey ?? randomKey;

  const nodeOf = (nodeId: string) => documents.getState().nodes.find((node) => node.id === nodeId);
  const write = (nodeId: string, patch: Partial<CanvasNodeData>) => {
    const node = nodeOf(nodeId);
    if (node) documents.getState().applyExternal(new Map([[nodeId, { ...node.data, ...patch }]]));
  };

  /** A job's end written into its node (SPEC §4 "Polling"). */
  const applyEnd = (job: JobStatus) => {
    if (job.status === "COMPLETED") {
      write(job.nodeId, {
        status: "complete",
        // What this result was made from, so an unchanged node can be skipped next time.
        runSignature: nodeOf(job.nodeId)?.data.pendingSignature,
        // SPEC §9: the node keeps its 20 latest results (serialization trims them).
        history: [
          ...((nodeOf(job.nodeId)?.data.history as HistoryEntry[] | undefined) ?? []),
          {
            requestId: job.requestId,
            at: Date.now(),
            outputs: job.outputs ?? {},
            outputValues: job.outputValues ?? {},
          },
        ].slice(-LIMITS.text.historyEntries),
        outputs: job.outputs ?? {},
        outputValues: job.outputValues ?? {},
        error: null,
      });
    } else if (job.status === "FAILED") {
      write(job.nodeId, { status: "error", error: job.error || RUN_MESSAGES.failed });
    } else if (job.status === "CANCELLED") {
      write(job.nodeId, { status: "idle", error: null });
    }
  };

  const onJob = (job: JobStatus) => {
    const entry = runs.getState().runs[job.nodeId];
    if (!entry || entry.requestId !== job.requestId || !isActive(entry)) return;
    runs.getState().upsert({
      nodeId: job.nodeId,
      status: job.status,
      queuePosition: job.queue_position ?? null,
      logs: job.logs ?? [],
      progress: job.progress ?? null,
      lastUpdate: Date.now(),
      error: job.error ?? null,
    });
    if (!TERMINAL_QUEUE_STATUSES.includes(job.status)) return;
    if (!automation?.applyEnd(job)) applyEnd(job);
    if (job.status === "COMPLETED") deps.onComplete?.(job.nodeId, entry.model);
  };

  const onTimeout = (requestId: string, message: string) => {
    const entry = Object.values(runs.getState().runs).find((run) => run.requestId === requestId);
    if (!entry) return;
    runs.getState().upsert({ nodeId: entry.nodeId, status: "FAILED", error: message });
    const failed = { requestId, nodeId: entry.nodeId, status: "FAILED", error: message } as const;
    if (!automation?.applyEnd(failed as JobStatus))
      write(entry.nodeId, { status: "error", error: message });
  };

  const server = deps.runsApi
    ? createServerRuns(documents, {
        api: {
          ...deps.runsApi,
          ...(deps.api.ensureSession ? { ensureSession: deps.api.ensureSession } : {}),
        },
        runs,
        write,
        showError,
        ...(deps.onComplete ? { onComplete: deps.onComplete } : {}),
        ...(deps.onRunChange ? { onChange: deps.onRunChange } : {}),
        ...(deps.stream?.openEvents !== undefined ? { openEvents: deps.stream.openEvents } : {}),
      })
    : null;

  const stream = createJobStream(
    { onJob, onTimeout },
    { ...deps.stream, status: (requestId) => deps.api.queueStatus(requestId) },
  );

  /** Starts following a job in the runs store and on the stream. */
  const follow = (job: Omit<JobStatus, "workflowId">) => {
    const now = Date.now();
    runs.getState().upsert({
      nodeId: job.nodeId,
      model: job.model,
      requestId: job.requestId,
      endpoint: job.endpoint,
      status: job.status,
      queuePosition: job.queue_position ?? null,
      logs: job.logs ?? [],
      progress: job.progress ?? null,
      startTime: now,
      lastUpdate: now,
      error: null,
    });
    stream.track(job.requestId, now);
  };

  /** Counts resumes, so only the latest one applies its answer. */
  let resumes = 0;

  // Image automation's code loads with the first automation run or resume (DESIGN §7).
  let automation: Automation | null = null;
  const loadAutomation = async (): Promise<Automation> => {
    const { createAutomation } = await import("./automation.ts");
    automation ??= createAutomation({
      documents,
      api: deps.api,
      workflowId,
      newKey,
      write,
      follow,
      isRunnable,
      messageOf,
    });
    return automation;
  };

  return {
    async run(nodeId) {
      const node = nodeOf(nodeId);
      const type = node?.type;
      if (!node || !type || !isRunnable(type) || isActive(runs.getState().runs[nodeId])) return;
      if (type === "image-automation") {
        if (!useWorkspace.getState().user) await deps.api.ensureSession?.();
        return (await loadAutomation()).start(nodeId);
      }
      const { nodes, edges } = documents.getState();
      const gathered = gatherInputs(nodes, edges, nodeId);
      if (gathered.missing.length > 0) {
        write(nodeId, {
          status: "error",
          error: `Missing required input: ${gathered.missing[0]}`,
        });
        return;
      }
      write(nodeId, {
        status: "processing",
        error: null,
        pendingSignature: runSignature(documents, nodeId),
      });
      try {
        // Signed out: an anonymous session runs it (SPEC's anonymous use stays local).
        if (!useWorkspace.getState().user) await deps.api.ensureSession?.();
        const started = await deps.api.generate(type, {
          nodeId,
          workflowId: workflowId(),
          inputs: gathered.inputs,
          params: gathered.params,
          idempotencyKey: newKey(),
        });
        follow({ ...started, nodeId, model: type });
      } catch (error) {
        write(nodeId, { status: "error", error: messageOf(error) });
        showError(messageOf(error));
      }
    },

    async cancel(nodeId) {
      const items = automation?.activeRequests(nodeId) ?? [];
      if (items.length > 0) {
        await Promise.all(
          items.map((requestId) =>
            deps.api.cancelJob(requestId).then(
              (job) => {
                stream.untrack(requestId);
                onJob(job);
              },
              (error) => showError(messageOf(error)),
            ),
          ),
        );
        return;
      }
      const entry = runs.getState().runs[nodeId];
      if (!entry || !isActive(entry)) return;
      if (entry.runId && server) return server.cancel(entry.runId);
      try {
        const job = await deps.api.cancelJob(entry.requestId);
        stream.untrack(entry.requestId);
        onJob(job);
      } catch (error) {
        showError(messageOf(error));
      }
    },

    async resume(id) {
      const resumeOf = ++resumes;
      runs.getState().clear();
      stream.reset();
      const running = () =>
        documents.getState().nodes.filter((node) => node.data.status === "processing");
      // Signed out with nothing running there is nothing to ask for (and maybe no session).
      if (!useWorkspace.getState().user && running().length === 0) return;
      let jobs: JobStatus[];
      try {
        ({ jobs } = await deps.api.listJobs(id));
      } catch (error) {
        // No session: no job can be running for these nodes, so they stop saying so.
        if (error instanceof ApiError && error.status === 401 && resumeOf === resumes)
          for (const node of running()) write(node.id, { status: "idle" });
        return; // Offline: the nodes keep their state until the next load.
      }
      // A later load (or user) started its own resume: this answer is for another document.
      if (resumeOf !== resumes) return;
      const newest = new Map<string, JobStatus>();
      for (const job of jobs) if (!newest.has(job.nodeId)) newest.set(job.nodeId, job);
      // Automation items: follow the unfinished, apply the ends of the rest.
      const itemJobs = jobs.filter((job) => parseAutomationItemId(job.nodeId));
      if (itemJobs.length > 0) {
        const items = await loadAutomation();
        for (const job of itemJobs) {
          const item = parseAutomationItemId(job.nodeId);
          const current =
            item !== null && items.activeRequests(item.automationId).includes(job.requestId);
          if (!TERMINAL_QUEUE_STATUSES.includes(job.status)) {
            if (current) follow(job);
          } else items.applyEnd(job);
        }
      }
      for (const node of documents.getState().nodes) {
        if ((automation?.activeRequests(node.id).length ?? 0) > 0) continue;
        const job = newest.get(node.id);
        if (job && !TERMINAL_QUEUE_STATUSES.includes(job.status)) {
          if (node.data.status !== "processing") write(node.id, { status: "processing" });
          follow(job);
        } else if (node.data.status === "processing") {
          if (job) applyEnd(job);
          else write(node.id, { status: "idle" });
        }
      }
      // Server-side runs of this workflow still under way (ADR 0010).
      if (resumeOf === resumes) await server?.resume(id);
    },

    isRunnable,

    async runGraph(target) {
      if (deps.askCost) {
        const { confirmRunAt } = await import("../costs/cost-prompt.ts");
        if (!(await confirmRunAt(documents, target)))
          return { ok: false, error: COST_MESSAGES.declined };
      }
      const { nodes, edges } = documents.getState();
      const scope = target ? [...upstreamOf(target, edges), target] : nodes.map((node) => node.id);
      const automated = scope.some((id) => nodeOf(id)?.type === "image-automation");
      if (server && !automated) return server.start(target);
      const result = await runGraph(
        documents,
        (nodeId) => this.run(nodeId),
        (nodeId, note) => write(nodeId, { runNote: note }),
        target,
      );
      if (!result.ok) {
        const names = result.cycle.map((id) => nodeOf(id)?.data.label ?? nodeOf(id)?.type ?? id);
        showError(`Cannot run: the graph has a cycle (${names.join(" → ")})`);
      }
      return result;
    },

    dispose: () => {
      stream.close();
      server?.dispose();
    },
  };
}
