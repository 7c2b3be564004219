import { z } from "zod";
import { zSavedEdge, zSavedNode } from "../schema/workflow.ts";
import { zId } from "./common.ts";

/** Limits of a run request (a device-only graph travels whole). */
export const RUN_LIMITS = {
  nodes: 5000,
  edges: 20_000,
  targetNodes: 1000,
  overrideNodes: 1000,
  /** Nodes of one user's runs that have a job at once (independent branches in parallel). */
  parallelPerUser: 4,
  /** Runs per page of a workflow's history. */
  pageSize: 20,
  pageSizeMax: 100,
} as const;

export const RUN_STATUSES = [
  "queued",
  "running",
  "paused",
  "completed",
  "failed",
  "cancelled",
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const RUN_NODE_STATUSES = [
  "queued",
  "running",
  "completed",
  "failed",
  "skipped",
  "cancelled",
  "not_run",
] as const;
export type RunNodeStatus = (typeof RUN_NODE_STATUSES)[number];

export const TERMINAL_RUN_STATUSES: readonly RunStatus[] = ["completed", "failed", "cancelled"];
export const TERMINAL_RUN_NODE_STATUSES: readonly RunNodeStatus[] = [
  "completed",
  "failed",
  "skipped",
  "cancelled",
  "not_run",
];

/** Texts of the run engine that users see. */
export const RUN_ENGINE_MESSAGES = {
  unchanged: "Unchanged since its last run: kept its result",
  feederFailed: (name: string) => `Not run: ${name} did not complete`,
  cancelled: "Cancelled",
  graphRequired: "A run needs a workflowId or a graph",
  notRetryable: "Only a failed or cancelled run can be retried",
  notMovable: "Only a queued run can be moved",
  notFound: "Run not found",
} as const;

export const zRunTarget = z.union([
  z.strictObject({ all: z.literal(true) }),
  z.strictObject({ upTo: zId }),
  z.strictObject({ nodes: z.array(zId).min(1).max(RUN_LIMITS.targetNodes) }),
]);

export const zRunOverrides = z
  .record(zId, z.record(z.string().min(1).max(200), z.unknown()))
  .refine((value) => Object.keys(value).length <= RUN_LIMITS.overrideNodes, {
    message: `At most ${RUN_LIMITS.overrideNodes} nodes`,
  });

/**
 * POST /api/runs. A cloud workflow is named by id and the version the editor's copy is
 * based on, plus its unsaved node changes (`graph.nodes` replace stored nodes by id, `graph.
 * edges` replace the edges, `graph.removed` drops nodes); a device-only or anonymous one
 * sends the nodes and wires it needs as `graph`.
 */
export const zRunRequest = z.strictObject({
  workflowId: zId.optional(),
  basedOn: z.string().max(64).optional(),
  graph: z
    .strictObject({
      nodes: z.array(zSavedNode).max(RUN_LIMITS.nodes),
      edges: z.array(zSavedEdge).max(RUN_LIMITS.edges).optional(),
      removed: z.array(zId).max(RUN_LIMITS.nodes).optional(),
    })
    .optional(),
  target: zRunTarget.optional(),
  inputs: zRunOverrides.optional(),
});
export type RunRequest = z.infer<typeof zRunRequest>;

export const zRunNode = z.object({
  id: z.string(),
  type: z.string(),
  label: z.string().nullable(),
  status: z.enum(RUN_NODE_STATUSES),
  /** The job of its latest attempt (`/api/queue/status` requestId). */
  requestId: z.string().nullable(),
  attempt: z.number().int(),
  progress: z.number().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  outputs: z.record(z.string(), z.unknown()).optional(),
  outputValues: z.record(z.string(), z.unknown()).optional(),
  error: z.string().optional(),
  note: z.string().optional(),
});
export type RunNodeView = z.infer<typeof zRunNode>;

export const zRun = z.object({
  id: z.string(),
  workflowId: z.string().nullable(),
  status: z.enum(RUN_STATUSES),
  target: zRunTarget,
  inputs: z.record(z.string(), z.record(z.string(), z.unknown())),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** Cost in US dollars when every provider told it; null when unknown. */
  cost: z.number().nullable(),
  nodes: z.array(zRunNode),
});
export type RunView = z.infer<typeof zRun>;

export const zRunResponse = z.object({ run: zRun });

/** A run in a list: its nodes' states without outputs. */
export const zRunSummary = zRun.extend({
  nodes: z.array(zRunNode.omit({ outputs: true, outputValues: true })),
});
export type RunSummary = z.infer<typeof zRunSummary>;

export const zRunListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(RUN_LIMITS.pageSizeMax).default(RUN_LIMITS.pageSize),
  /** The `nextCursor` of the previous page. */
  cursor: z.string().max(200).optional(),
});
export const zRunListResponse = z.object({
  runs: z.array(zRunSummary),
  nextCursor: z.string().nullable(),
});

/** POST /api/runs/:id/retry: only these failed or not-run nodes (and the ones after them). */
export const zRunRetryRequest = z.strictObject({
  nodes: z.array(zId).min(1).max(RUN_LIMITS.targetNodes).optional(),
});

/** POST /api/runs/cancel-all */
export const zCancelAllRunsResponse = z.object({ cancelled: z.number().int() });

/** POST /api/runs/:id/move: one place up or down the user's queue. */
export const zRunMoveRequest = z.strictObject({ direction: z.enum(["up", "down"]) });

/** GET/PUT /api/queue/state: the user's queue paused (queued nodes wait) or running. */
export const zQueueState = z.strictObject({ paused: z.boolean() });
export type QueueState = z.infer<typeof zQueueState>;

/** GET /api/runs: the user's active runs in queue order (the queue panel). */
export const zActiveRunsResponse = z.object({
  paused: z.boolean(),
  runs: z.array(zRunSummary),
});
