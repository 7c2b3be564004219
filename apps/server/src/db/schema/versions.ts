/** Version history: a workflow's saved states and the chunk texts they share. */
import { integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { user } from "./auth.ts";
import { createdAt } from "./columns.ts";
import { workflows } from "./workflows.ts";

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
