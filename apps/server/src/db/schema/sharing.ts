/** Sharing and publishing: share links and published apps. */
import { APP_ACCESS, type AppField, type AppOutput, SHARE_ROLES } from "@atelier/core";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { user } from "./auth.ts";
import { createdAt } from "./columns.ts";
import { workflows } from "./workflows.ts";

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
