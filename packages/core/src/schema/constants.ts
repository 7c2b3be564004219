/** Plain values of the saved form, apart from its zod schemas (the editor loads them first). */

export const WORKFLOW_VERSION = "1.0.0";

/** The name of a workflow saved or loaded without one. */
export const UNTITLED_WORKFLOW = "Untitled workflow";

export const NODE_STATUSES = ["idle", "processing", "complete", "error"] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];
