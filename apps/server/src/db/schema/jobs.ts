/** Generation: jobs (one node's run), server-side runs of a graph and each user's queue. */
import { RUN_NODE_STATUSES, RUN_STATUSES } from "@atelier/core";
import { sql } from "drizzle-orm";
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { user } from "./auth.ts";
import { createdAt, updatedAt } from "./columns.ts";

/**
 * One generation run of one node (DESIGN §4.9). The row is written before any provider call;
 * `step` records where the worker is inside a status (so a crash resumes at the right
 * place), and `runner` names the one chain of worker steps allowed to drive the job.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    workflowId: text("workflow_id"),
    nodeId: text("node_id").notNull(),
    /** The node type (catalogue) that was run. */
    model: text("model").notNull(),
    provider: text("provider").notNull(),
    endpoint: text("endpoint").notNull(),
    providerRequestId: text("provider_request_id"),
    status: text("status", {
      enum: ["IN_QUEUE", "IN_PROGRESS", "COMPLETED", "FAILED", "CANCELLED"],
    }).notNull(),
    step: text("step", {
      enum: ["queued", "submitting", "submitted", "fetching", "done"],
    }).notNull(),
    queuePosition: integer("queue_position"),
    progress: integer("progress"),
    logs: jsonb("logs")
      .$type<{ message: string; level?: string; timestamp?: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** The run as resolved: inputs, params and the provider's request body. */
    input: jsonb("input").$type<Record<string, unknown>>().notNull(),
    outputs: jsonb("outputs").$type<Record<string, unknown>>(),
    outputValues: jsonb("output_values").$type<Record<string, { value: unknown }>>(),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    idempotencyKey: text("idempotency_key"),
    /** The run that started it, if any (its node's job). */
    runId: text("run_id"),
    /** Unguessable token in webhook/callback URLs. */
    callbackToken: text("callback_token").notNull(),
    runner: text("runner"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }),
    completedAt: timestamp("completed_at", { withTimezone: true, mode: "date" }),
    /**
     * What the run costs in US dollars by its endpoint's published price (core prices.ts),
     * set when the job is written; null when no price is published. Spend counts completed
     * jobs; budgets also hold back the cost of jobs still queued or running.
     */
    costUsd: doublePrecision("cost_usd"),
    /** An anonymous session's address (IPv6: its /64): their spend is budgeted by address. */
    clientAddress: text("client_address"),
    /**
     * Last time a worker step touched the job, or — for a job waiting on a webhook — when its
     * next step is due: one silent past that (plus the stale margin) is picked up again.
     */
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
  },
  (table) => [
    index("jobs_user_created_idx").on(table.userId, table.createdAt.desc()),
    index("jobs_status_idx").on(table.status),
    uniqueIndex("jobs_user_idempotency_idx").on(table.userId, table.idempotencyKey),
    index("jobs_provider_request_idx").on(table.provider, table.providerRequestId),
    index("jobs_run_idx").on(table.runId),
    index("jobs_completed_idx").on(table.completedAt),
    index("jobs_client_address_idx").on(table.clientAddress),
  ],
);

/**
 * A run of a workflow's graph on the server (ADR 0010): what it runs (`graph`, the nodes it
 * reads with the request's overrides applied), its place in its user's queue, and its state.
 */
export const runs = pgTable(
  "runs",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** The cloud workflow whose stored nodes receive the results; null for device-only. */
    workflowId: text("workflow_id"),
    basedOn: text("based_on"),
    status: text("status", { enum: RUN_STATUSES }).notNull(),
    target: jsonb("target").$type<Record<string, unknown>>().notNull(),
    inputs: jsonb("inputs").$type<Record<string, Record<string, unknown>>>().notNull(),
    graph: jsonb("graph").$type<{ nodes: unknown[]; edges: unknown[] }>().notNull(),
    /** Place in the user's queue: lower first. */
    queueOrder: doublePrecision("queue_order").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }),
    completedAt: timestamp("completed_at", { withTimezone: true, mode: "date" }),
    /** The published app this run is of (its graph is the app's version), else null. */
    appId: text("app_id"),
    appVersion: integer("app_version"),
    /** An anonymous session's address: its steps' jobs are budgeted by it. */
    clientAddress: text("client_address"),
  },
  (table) => [
    index("runs_user_status_idx").on(table.userId, table.status),
    index("runs_workflow_created_idx").on(table.workflowId, table.createdAt.desc()),
    index("runs_app_created_idx").on(table.appId, table.createdAt.desc()),
  ],
);

/** One step of a run: a node, its state, its latest attempt's job and what it produced. */
export const runNodes = pgTable(
  "run_nodes",
  {
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    nodeId: text("node_id").notNull(),
    /** Dependency order within the run. */
    position: integer("position").notNull(),
    type: text("type").notNull(),
    label: text("label"),
    /** The run's steps this one waits for. */
    feeders: text("feeders").array().notNull(),
    status: text("status", { enum: RUN_NODE_STATUSES }).notNull(),
    attempt: integer("attempt").notNull().default(0),
    jobId: text("job_id"),
    /** What the run was made from (model, inputs, parameters): unchanged nodes are skipped. */
    signature: text("signature"),
    outputs: jsonb("outputs").$type<Record<string, unknown>>(),
    outputValues: jsonb("output_values").$type<Record<string, { value: unknown }>>(),
    error: text("error"),
    note: text("note"),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }),
    completedAt: timestamp("completed_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [primaryKey({ columns: [table.runId, table.nodeId] })],
);

/** A user's queue: paused, queued nodes wait (running ones finish). */
export const userQueues = pgTable("user_queues", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  paused: boolean("paused").notNull().default(false),
  updatedAt: updatedAt(),
});
