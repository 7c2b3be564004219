import {
  type GraphEdge,
  gatherInputs,
  RUN_ENGINE_MESSAGES,
  RUN_LIMITS,
  RUN_MESSAGES,
  type RunNode,
  type RunNodeStatus,
  type RunStatus,
  runSignatureOf,
  TERMINAL_RUN_NODE_STATUSES,
} from "@atelier/core";
import { and, eq, inArray } from "drizzle-orm";
import type { AppDb } from "../../db/client.ts";
import type { JobRow, RunNodeRow, RunRow } from "../../db/rows.ts";
import { jobs, runNodes, runs } from "../../db/schema.ts";
import { DomainError } from "../../domain/errors.ts";
import { announceRunChange } from "../../realtime/events.ts";
import type { GenerateInput } from "../generation.ts";
import { storeRunResult } from "../workflow-storage/run-results.ts";
import { activeRuns, isQueuePaused, nodesOfRuns } from "./run-rows.ts";

export interface AdvanceDeps {
  db: AppDb;
  /** Creates a step's job (or finds it by its idempotency key) and starts a new one. */
  startJob(
    userId: string,
    model: string,
    input: GenerateInput,
    clientAddress: string | null,
  ): Promise<JobRow>;
  log: { error(object: unknown, message: string): void };
}

const isTerminal = (status: string) => (TERMINAL_RUN_NODE_STATUSES as string[]).includes(status);
const BLOCKING: readonly string[] = ["failed", "not_run", "cancelled"];
const DONE: readonly string[] = ["completed", "skipped"];

type NodePatch = Partial<Omit<RunNodeRow, "runId" | "nodeId">>;

/**
 * Moves the user's runs forward (ADR 0010): steps whose job ended take its outputs (and a
 * cloud workflow's stored node takes them too), steps after a failed one are not run, and
 * ready steps start in queue order while the user has free slots and has not paused the
 * queue. Every write is a conditional transition, so running it twice, or in two processes
 * at once, changes nothing more; a step's job carries the idempotency key
 * `run:<run>:<node>:<attempt>`, so it is never submitted twice.
 */
export async function advanceUserRuns(deps: AdvanceDeps, userId: string): Promise<void> {
  // A step whose job had already ended (found again by its key) is taken at once.
  for (let round = 0; round < 3; round++) if (!(await advanceOnce(deps, userId))) return;
}

/** One pass; true when a started step's job had already ended (another pass takes it). */
async function advanceOnce(deps: AdvanceDeps, userId: string): Promise<boolean> {
  const { db } = deps;
  const active = await activeRuns(db, userId);
  if (active.length === 0) return false;
  const nodes = await nodesOfRuns(
    db,
    active.map((run) => run.id),
  );
  const changed = new Set<string>();
  const update = async (node: RunNodeRow, patch: NodePatch, from: RunNodeStatus) => {
    const [row] = await db
      .update(runNodes)
      .set(patch)
      .where(
        and(
          eq(runNodes.runId, node.runId),
          eq(runNodes.nodeId, node.nodeId),
          eq(runNodes.status, from),
        ),
      )
      .returning({ nodeId: runNodes.nodeId });
    if (!row) return false;
    Object.assign(node, patch);
    changed.add(node.runId);
    return true;
  };
  const runOf = new Map(active.map((run) => [run.id, run]));
  await takeEndedJobs(deps, nodes, runOf, update);

  const paused = await isQueuePaused(db, userId);
  let slots = RUN_LIMITS.parallelPerUser - nodes.filter((node) => node.status === "running").length;
  let again = false;
  for (const run of active) {
    const list = nodes.filter((node) => node.runId === run.id);
    const byId = new Map(list.map((node) => [node.nodeId, node]));
    for (const node of list) {
      if (node.status !== "queued") continue;
      const feeders = node.feeders.map((id) => byId.get(id)).filter((f) => f !== undefined);
      const blocked = feeders.find((feeder) => BLOCKING.includes(feeder.status));
      if (blocked) {
        const name = blocked.label ? `"${blocked.label}"` : blocked.type;
        await update(
          node,
          {
            status: "not_run",
            error: RUN_ENGINE_MESSAGES.feederFailed(name),
            completedAt: new Date(),
          },
          "queued",
        );
        continue;
      }
      if (paused || slots <= 0 || !feeders.every((feeder) => DONE.includes(feeder.status)))
        continue;
      const started = await startStep(deps, run, list, node, update);
      if (started === "running") slots--;
      if (started === "ended") again = true;
    }
    await settleRun(db, run, list, paused, changed);
  }
  for (const runId of changed) {
    const run = runOf.get(runId) as RunRow;
    await announceRunChange(db, { runId, userId, status: run.status });
  }
  return again;
}

/** Steps whose job ended take its result; a completed one goes into its stored node. */
async function takeEndedJobs(
  deps: AdvanceDeps,
  nodes: RunNodeRow[],
  runOf: Map<string, RunRow>,
  update: (node: RunNodeRow, patch: NodePatch, from: RunNodeStatus) => Promise<boolean>,
) {
  const running = nodes.filter((node) => node.status === "running" && node.jobId);
  if (running.length === 0) return;
  const ended = await deps.db
    .select()
    .from(jobs)
    .where(
      and(
        inArray(
          jobs.id,
          running.map((node) => node.jobId as string),
        ),
        inArray(jobs.status, ["COMPLETED", "FAILED", "CANCELLED"]),
      ),
    );
  const byJob = new Map(ended.map((job) => [job.id, job]));
  for (const node of running) {
    const job = byJob.get(node.jobId as string);
    if (!job) continue;
    const completedAt = job.completedAt ?? new Date();
    if (job.status === "COMPLETED") {
      const outputs = job.outputs ?? {};
      const outputValues = job.outputValues ?? {};
      const took = await update(
        node,
        { status: "completed", outputs, outputValues, error: null, completedAt },
        "running",
      );
      const run = runOf.get(node.runId);
      if (took && run?.workflowId)
        await storeRunResult(deps.db, run.userId, run.workflowId, {
          nodeId: node.nodeId,
          requestId: job.id,
          outputs,
          outputValues,
          signature: node.signature,
          completedAt,
        }).catch((error) => deps.log.error({ err: error, runId: run.id }, "result not stored"));
    } else if (job.status === "FAILED") {
      await update(
        node,
        { status: "failed", error: job.error || RUN_MESSAGES.failed, completedAt },
        "running",
      );
    } else {
      await update(
        node,
        { status: "cancelled", error: RUN_ENGINE_MESSAGES.cancelled, completedAt },
        "running",
      );
    }
  }
}

/** The run's graph with the results its finished steps produced so far. */
function graphWithResults(run: RunRow, list: readonly RunNodeRow[]) {
  const done = new Map(
    list.filter((node) => node.status === "completed").map((node) => [node.nodeId, node]),
  );
  const nodes = (run.graph.nodes as RunNode[]).map((node) => {
    const step = done.get(node.id);
    if (!step) return node;
    return {
      ...node,
      data: { ...node.data, outputs: step.outputs ?? {}, outputValues: step.outputValues ?? {} },
    };
  });
  return { nodes, edges: run.graph.edges as GraphEdge[] };
}

/** Starts one ready step: skipped when unchanged since its last result, else its job. */
async function startStep(
  deps: AdvanceDeps,
  run: RunRow,
  list: readonly RunNodeRow[],
  node: RunNodeRow,
  update: (node: RunNodeRow, patch: NodePatch, from: RunNodeStatus) => Promise<boolean>,
): Promise<"running" | "ended" | "done"> {
  const { nodes, edges } = graphWithResults(run, list);
  const own = nodes.find((candidate) => candidate.id === node.nodeId);
  const signature = runSignatureOf(nodes, edges, node.nodeId);
  const now = new Date();
  if (
    node.attempt === 0 &&
    own?.data.status === "complete" &&
    own.data.runSignature === signature
  ) {
    await update(
      node,
      {
        status: "skipped",
        note: RUN_ENGINE_MESSAGES.unchanged,
        outputs: (own.data.outputs as Record<string, unknown>) ?? {},
        outputValues: (own.data.outputValues as Record<string, { value: unknown }>) ?? {},
        signature,
        startedAt: now,
        completedAt: now,
      },
      "queued",
    );
    return "done";
  }
  const gathered = gatherInputs(nodes, edges, node.nodeId);
  const fail = (error: string) =>
    update(node, { status: "failed", error, startedAt: now, completedAt: now }, "queued");
  if (gathered.missing.length > 0) {
    await fail(`Missing required input: ${gathered.missing[0]}`);
    return "done";
  }
  let job: JobRow;
  try {
    job = await deps.startJob(
      run.userId,
      node.type,
      {
        nodeId: node.nodeId,
        workflowId: run.workflowId,
        inputs: gathered.inputs,
        params: gathered.params,
        idempotencyKey: `run:${run.id}:${node.nodeId}:${node.attempt}`,
        runId: run.id,
      },
      run.clientAddress,
    );
  } catch (error) {
    if (!(error instanceof DomainError))
      deps.log.error({ err: error, runId: run.id, nodeId: node.nodeId }, "step not started");
    await fail(error instanceof DomainError ? error.message : RUN_MESSAGES.failed);
    return "done";
  }
  await update(node, { status: "running", jobId: job.id, signature, startedAt: now }, "queued");
  return ["COMPLETED", "FAILED", "CANCELLED"].includes(job.status) ? "ended" : "running";
}

/** The run's status from its steps': finished, running, paused or still queued. */
async function settleRun(
  db: AppDb,
  run: RunRow,
  list: readonly RunNodeRow[],
  paused: boolean,
  changed: Set<string>,
) {
  const statuses = list.map((node) => node.status);
  let status: RunStatus;
  if (statuses.every(isTerminal))
    status = statuses.every((s) => DONE.includes(s))
      ? "completed"
      : statuses.some((s) => s === "cancelled")
        ? "cancelled"
        : "failed";
  else if (statuses.includes("running")) status = "running";
  else if (paused) status = "paused";
  else status = statuses.every((s) => s === "queued") ? "queued" : "running";
  if (status === run.status) return;
  const now = new Date();
  const finished = status === "completed" || status === "failed" || status === "cancelled";
  const patch = {
    status,
    updatedAt: now,
    ...(status === "running" && !run.startedAt ? { startedAt: now } : {}),
    ...(finished ? { completedAt: now } : {}),
  };
  const [row] = await db
    .update(runs)
    .set(patch)
    .where(and(eq(runs.id, run.id), eq(runs.status, run.status)))
    .returning({ id: runs.id });
  if (!row) return;
  Object.assign(run, patch);
  changed.add(run.id);
}
