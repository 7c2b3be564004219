/**
 * The database schema, identical on PGlite and PostgreSQL. Column names follow SPEC §3;
 * the four auth tables are Better Auth's.
 */
import {
  APP_ACCESS,
  type AppField,
  type AppOutput,
  RUN_NODE_STATUSES,
  RUN_STATUSES,
  SHARE_ROLES,
} from "@atelier/core";
import { sql } from "drizzle-orm";
import {
  bigint,
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

const createdAt = () =>
  timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

export const user = pgTable("user", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  isAdmin: boolean("is_admin").notNull().default(false),
  /** A browser that runs generations before signing up (Better Auth's anonymous plugin). */
  isAnonymous: boolean("is_anonymous").default(false),
  /** Set by an admin: the account cannot sign in, and its sessions and API tokens stop working. */
  disabledAt: timestamp("disabled_at", { withTimezone: true, mode: "date" }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    token: text("token").notNull().unique(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("session_user_idx").on(table.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", {
      withTimezone: true,
      mode: "date",
    }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", {
      withTimezone: true,
      mode: "date",
    }),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("account_user_idx").on(table.userId)],
);

export const verification = pgTable("verification", {
  id: text("id").primaryKey(),
  identifier: text("identifier").notNull(),
  value: text("value").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const folders = pgTable(
  "folders",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex("folders_user_name_idx").on(table.userId, sql`lower(${table.name})`)],
);

export const workflows = pgTable(
  "workflows",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description"),
    /** The saved workflow as JSON text; null when it is stored in chunks. */
    data: text("data"),
    thumbnailUrl: text("thumbnail_url"),
    isPublic: boolean("is_public").notNull().default(false),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    folderId: text("folder_id").references(() => folders.id, { onDelete: "set null" }),
    mediaRefs: text("media_refs").array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    forkCount: integer("fork_count").notNull().default(0),
    forkedFrom: text("forked_from"),
    isTemplate: boolean("is_template").notNull().default(false),
    isChunked: boolean("is_chunked").notNull().default(false),
    chunkCount: integer("chunk_count").notNull().default(0),
    dataSizeBytes: integer("data_size_bytes").notNull().default(0),
    /**
     * A chunked workflow's metadata chunk (everything but nodes and edges, plus counts). It
     * lives on the row, which every save rewrites anyway, so a save that changes one node
     * rewrites only that node's chunk. Null for rows chunked before it existed (they keep a
     * metadata chunk) and for workflows stored whole in `data`.
     */
    chunkHead: text("chunk_head"),
    /**
     * Bumped by every run result merged into the stored nodes. Results do not change
     * `updated_at` (the version saves are based on), but answers cached by it must change.
     */
    resultsVersion: integer("results_version").notNull().default(0),
  },
  (table) => [
    index("workflows_user_updated_idx").on(table.userId, table.updatedAt.desc()),
    index("workflows_user_folder_idx").on(table.userId, table.folderId),
  ],
);

export const workflowChunks = pgTable(
  "workflow_chunks",
  {
    workflowId: text("workflow_id")
      .notNull()
      .references(() => workflows.id, { onDelete: "cascade" }),
    chunkIndex: integer("chunk_index").notNull(),
    chunkType: text("chunk_type", { enum: ["nodes", "edges", "metadata"] }).notNull(),
    data: text("data").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    /** SHA-1 of `data`: a save leaves a chunk whose text did not change untouched. */
    contentHash: text("content_hash"),
    /** Ids of the nodes a nodes chunk holds (a split node: on its first part only). */
    nodeIds: text("node_ids").array(),
  },
  (table) => [primaryKey({ columns: [table.workflowId, table.chunkIndex] })],
);

/**
 * Files in storage, one row per workflow that uses the file. `workflow_id` has no foreign
 * key: a signed-out user's temporary workflow has no row. A file is removed from storage
 * when the last row that names it goes.
 */
export const workflowMediaManifest = pgTable(
  "workflow_media_manifest",
  {
    id: text("id").primaryKey(),
    workflowId: text("workflow_id").notNull(),
    nodeId: text("node_id"),
    outputKey: text("output_key"),
    /** Several rows may share a file: copies and forks reference it too. */
    filePath: text("file_path").notNull(),
    fileSize: bigint("file_size", { mode: "number" }).notNull(),
    mimeType: text("mime_type").notNull(),
    userId: text("user_id"),
    uploadedAt: timestamp("uploaded_at", { withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
  },
  (table) => [
    index("media_workflow_idx").on(table.workflowId),
    index("media_user_idx").on(table.userId),
    index("media_path_idx").on(table.filePath),
  ],
);

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

/**
 * Personal API tokens (`Authorization: Bearer …`, headless use). Only the SHA-256 of a
 * token is kept: a token is 256 random bits, so its hash is looked up directly (no salt or
 * slow hash needed) and a database leak gives no usable token. `prefix` is the token's
 * first characters, for recognising it in the list; `last_used_at` is written at most once
 * a minute per token.
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    prefix: text("prefix").notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    uniqueIndex("api_tokens_hash_idx").on(table.tokenHash),
    index("api_tokens_user_created_idx").on(table.userId, table.createdAt.desc()),
  ],
);

/**
 * Share links (issue 22): `/s/{token}` opens the workflow with a role. The token is a
 * capability its owner may copy again, so it is kept; revoking deletes the row, so a revoked
 * link is indistinguishable from one that never was.
 */
export const shareLinks = pgTable(
  "share_links",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull(),
    workflowId: text("workflow_id")
      .notNull()
      .references(() => workflows.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    role: text("role", { enum: SHARE_ROLES }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("share_links_token_idx").on(table.token),
    index("share_links_workflow_idx").on(table.workflowId, table.createdAt.desc()),
  ],
);

/**
 * A workflow's published app: the graph of the version published (later edits do not change
 * it until republished), the inputs it exposes and the outputs it shows.
 */
export const apps = pgTable(
  "apps",
  {
    id: text("id").primaryKey(),
    slug: text("slug").notNull(),
    workflowId: text("workflow_id")
      .notNull()
      .references(() => workflows.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    access: text("access", { enum: APP_ACCESS }).notNull(),
    fields: jsonb("fields").$type<AppField[]>().notNull(),
    outputs: jsonb("outputs").$type<AppOutput[]>().notNull(),
    graph: jsonb("graph").$type<{ nodes: unknown[]; edges: unknown[] }>().notNull(),
    /** The workflow's `updated_at` when published. */
    basedOn: text("based_on").notNull(),
    version: integer("version").notNull().default(1),
    publishedAt: timestamp("published_at", { withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("apps_slug_idx").on(table.slug),
    uniqueIndex("apps_workflow_idx").on(table.workflowId),
  ],
);

/**
 * Request counts per key (`user:…`, `anon:…`, `ip:…`) in the window that began with the key's
 * first request: quotas shared by every process through the database, so the embedded
 * default needs no Redis. Lapsed rows are swept now and then.
 */
export const usageCounters = pgTable(
  "usage_counters",
  {
    key: text("key").primaryKey(),
    windowStart: timestamp("window_start", { withTimezone: true, mode: "date" }).notNull(),
    count: integer("count").notNull(),
  },
  (table) => [index("usage_counters_window_idx").on(table.windowStart)],
);

/** An admin's quota overrides for one user (null: the instance's default). */
export const userQuotas = pgTable("user_quotas", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  generationsPerMinute: integer("generations_per_minute"),
  concurrentJobs: integer("concurrent_jobs"),
  /** Spend budgets in US dollars (null: the instance's default). */
  dailyBudgetUsd: doublePrecision("daily_budget_usd"),
  monthlyBudgetUsd: doublePrecision("monthly_budget_usd"),
  updatedAt: updatedAt(),
});

/**
 * Processes working the generation queue: each writes its row when it starts and again every
 * sweep (15 s), and deletes it when it stops; one silent for a minute is no longer alive
 * (the admin page's instance health).
 */
export const workers = pgTable("workers", {
  id: text("id").primaryKey(),
  host: text("host").notNull(),
  pid: integer("pid").notNull(),
  concurrency: integer("concurrency").notNull(),
  startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }).notNull(),
  seenAt: timestamp("seen_at", { withTimezone: true, mode: "date" }).notNull(),
});

/** An admin's invitation to sign up (SIGNUP=invite): used once, before it expires. */
export const invites = pgTable(
  "invites",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull(),
    /** The address it is for, lower-case; null: whoever holds it. */
    email: text("email"),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("invites_token_idx").on(table.token)],
);

/**
 * A saved state of a workflow: every save (and the create) records one. Its document is a
 * head plus the hashes of its chunk texts, kept in `workflow_version_chunks`, which versions
 * of one workflow share: a one-prompt edit adds one chunk, not the whole document.
 */
export const workflowVersions = pgTable(
  "workflow_versions",
  {
    workflowId: text("workflow_id")
      .notNull()
      .references(() => workflows.id, { onDelete: "cascade" }),
    /** 1, 2, 3… per workflow, never reused: the `v` of `/w/:id?v=…`. */
    seq: integer("seq").notNull(),
    createdAt: createdAt(),
    /** Who saved it (the owner, or someone with an edit link); null once they are gone. */
    authorId: text("author_id").references(() => user.id, { onDelete: "set null" }),
    /** Named versions are kept until their name is removed; others are thinned with age. */
    name: text("name"),
    /** The version a restore brought back, when this one is such a restore. */
    restoredFrom: integer("restored_from"),
    /** The metadata chunk (as `workflows.chunk_head`): everything but nodes and edges. */
    head: text("head").notNull(),
    /** The chunks of nodes and edges, in order: `workflow_version_chunks.hash`. */
    chunkHashes: text("chunk_hashes").array().notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    /** Nodes added / removed / changed since `summary_base` (worked out when first listed). */
    summary: jsonb("summary").$type<{ added: number; removed: number; changed: number }>(),
    summaryBase: integer("summary_base"),
  },
  (table) => [primaryKey({ columns: [table.workflowId, table.seq] })],
);

/** Chunk texts of a workflow's versions, once each (by SHA-1 of their text). */
export const workflowVersionChunks = pgTable(
  "workflow_version_chunks",
  {
    workflowId: text("workflow_id")
      .notNull()
      .references(() => workflows.id, { onDelete: "cascade" }),
    hash: text("hash").notNull(),
    chunkType: text("chunk_type", { enum: ["nodes", "edges"] }).notNull(),
    data: text("data").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
  },
  (table) => [primaryKey({ columns: [table.workflowId, table.hash] })],
);

export const schema = {
  user,
  session,
  account,
  verification,
  folders,
  workflows,
  workflowChunks,
  workflowMediaManifest,
  jobs,
  runs,
  runNodes,
  userQueues,
  apiTokens,
  shareLinks,
  apps,
  usageCounters,
  userQuotas,
  invites,
  workflowVersions,
  workflowVersionChunks,
};
