import type { apps, jobs, runNodes, runs, shareLinks, workflows } from "./schema.ts";

/** A `jobs` row as drizzle reads it. */
export type JobRow = typeof jobs.$inferSelect;

/** A `workflows` row as drizzle reads it. */
export type WorkflowRecord = typeof workflows.$inferSelect;

/** A `runs` row. */
export type RunRow = typeof runs.$inferSelect;

/** A `run_nodes` row. */
export type RunNodeRow = typeof runNodes.$inferSelect;

/** A `share_links` row. */
export type ShareLinkRow = typeof shareLinks.$inferSelect;

/** An `apps` row. */
export type AppRow = typeof apps.$inferSelect;
