import type { jobs, workflows } from "./schema.ts";

/** A `jobs` row as drizzle reads it. */
export type JobRow = typeof jobs.$inferSelect;

/** A `workflows` row as drizzle reads it. */
export type WorkflowRecord = typeof workflows.$inferSelect;
