import type { jobs, runNodes, runs, workflows } from "./schema.ts";

/** A `jobs` row as drizzle reads it. */
export type JobRow = typeof jobs.$inferSelect;

/** A `workflows` row as drizzle reads it. */
export type WorkflowRecord = typeof workflows.$inferSelect;

/** A `runs` row. */
export type RunRow = typeof runs.$inferSelect;

/** A `run_nodes` row. */
export type RunNodeRow = typeof runNodes.$inferSelect;
