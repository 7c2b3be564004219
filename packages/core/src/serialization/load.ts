import { z } from "zod";
import { UNTITLED_WORKFLOW } from "../schema/constants.ts";
import { type SavedWorkflow, zSavedEdge, zSavedNode, zSavedWorkflow } from "../schema/workflow.ts";
import { recoverWorkflow, validateWorkflow } from "../validation/workflow.ts";
import { deserializeWorkflow } from "./serialize.ts";

export interface LoadedWorkflow {
  document: ReturnType<typeof deserializeWorkflow>;
  /** True when invalid data had to be recovered ("Workflow was partially corrupted…"). */
  recovered: boolean;
  warnings: string[];
}

const DEFAULT_METADATA = { name: UNTITLED_WORKFLOW };

/** What the saved schema checks: defaults filled in, nodes neither selected nor dragging. */
function candidateOf(source: Record<string, unknown>) {
  return {
    timestamp: 0,
    ...source,
    metadata: { ...DEFAULT_METADATA, ...(source.metadata as object | undefined) },
    nodes: (source.nodes as Record<string, unknown>[]).map((node) => ({
      ...node,
      selected: false,
      dragging: false,
    })),
  };
}

/**
 * The load path shared by browser and server: validate, recover what can be recovered,
 * coerce into the saved schema and deserialize. Throws only when nothing can be made of it.
 */
export function loadWorkflowData(data: unknown): LoadedWorkflow {
  const check = validateWorkflow(data);
  const source = check.valid ? (data as Record<string, unknown>) : recoverWorkflow(data);
  const parsed = zSavedWorkflow.safeParse(candidateOf(source));
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

const zNodeBatch = z.array(zSavedNode);
const zEdgeBatch = z.array(zSavedEdge);

/**
 * `loadWorkflowData` in steps for large workflows: the structure is checked, then the nodes
 * and the wires `batchSize` at a time, with `pause()` awaited before each step, so the
 * caller's thread can draw and take input in between (the schema check of 5 MB takes ~60 ms
 * in one piece in a fresh page; the structure and the wires together were a 13–50 ms step on
 * a slow device). Same answer and same errors: anything invalid goes through
 * `loadWorkflowData` whole.
 */
export async function loadWorkflowDataInSteps(
  data: unknown,
  pause: () => Promise<void>,
  batchSize = 200,
): Promise<LoadedWorkflow> {
  const check = validateWorkflow(data);
  if (!check.valid) return loadWorkflowData(data);
  await pause();
  const { nodes, ...rest } = candidateOf(data as Record<string, unknown>);
  const edges = (data as { edges: unknown[] }).edges;
  const head = zSavedWorkflow.safeParse({ ...rest, nodes: [], edges: [] });
  if (!head.success) return loadWorkflowData(data);
  const inBatches = async <T>(items: unknown[], schema: z.ZodType<T[]>): Promise<T[] | null> => {
    const checked: T[] = [];
    for (let start = 0; start < items.length; start += batchSize) {
      await pause();
      const batch = schema.safeParse(items.slice(start, start + batchSize));
      if (!batch.success) return null;
      checked.push(...batch.data);
    }
    return checked;
  };
  const checkedNodes = await inBatches(nodes, zNodeBatch);
  const checkedEdges = checkedNodes && (await inBatches(edges, zEdgeBatch));
  if (!checkedNodes || !checkedEdges) return loadWorkflowData(data);
  await pause();
  const saved = { ...head.data, nodes: checkedNodes, edges: checkedEdges } as SavedWorkflow;
  return { document: deserializeWorkflow(saved), recovered: false, warnings: check.warnings };
}
