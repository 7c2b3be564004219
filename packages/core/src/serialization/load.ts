import { type SavedWorkflow, zSavedWorkflow } from "../schema/workflow.ts";
import { recoverWorkflow, validateWorkflow } from "../validation/workflow.ts";
import { deserializeWorkflow } from "./serialize.ts";

export interface LoadedWorkflow {
  document: ReturnType<typeof deserializeWorkflow>;
  /** True when invalid data had to be recovered ("Workflow was partially corrupted…"). */
  recovered: boolean;
  warnings: string[];
}

const DEFAULT_METADATA = { name: "Untitled workflow" };

/**
 * The load path shared by browser and server: validate, recover what can be recovered,
 * coerce into the saved schema and deserialize. Throws only when nothing can be made of it.
 */
export function loadWorkflowData(data: unknown): LoadedWorkflow {
  const check = validateWorkflow(data);
  const source = check.valid ? (data as Record<string, unknown>) : recoverWorkflow(data);
  const candidate = {
    timestamp: 0,
    ...source,
    metadata: { ...DEFAULT_METADATA, ...(source.metadata as object | undefined) },
    nodes: (source.nodes as Record<string, unknown>[]).map((node) => ({
      ...node,
      selected: false,
      dragging: false,
    })),
  };
  const parsed = zSavedWorkflow.safeParse(candidate);
  if (!parsed.success) {
    throw new Error(
      `Invalid workflow data: ${parsed.error.issues.map((issue) => issue.message).join("; ")}`,
    );
  }
  return {
    document: deserializeWorkflow(parsed.data as SavedWorkflow),
    recovered: !check.valid,
    warnings: check.warnings,
  };
}
