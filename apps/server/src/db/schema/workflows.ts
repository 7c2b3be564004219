/** Workflows as stored: folders, the workflow rows, their chunks and the media files they use. */
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { user } from "./auth.ts";
import { createdAt, updatedAt } from "./columns.ts";

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
