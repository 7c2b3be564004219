import { validateWorkflow, WORKFLOW_VERSION } from "@atelier/core";
import { InvalidInputError } from "../../domain/errors.ts";

/** SPEC §5's structural check, so broken data gets "Invalid workflow data: …" (400). */
export function checkWorkflowData(data: unknown): void {
  const { valid, errors } = validateWorkflow(data);
  if (!valid) throw new InvalidInputError(`Invalid workflow data: ${errors.join("; ")}`);
}

/** The same check on a batch of nodes alone (their edges come with the commit). */
export function checkNodes(nodes: unknown): void {
  if (Array.isArray(nodes)) checkWorkflowData({ version: WORKFLOW_VERSION, nodes, edges: [] });
}

/**
 * The same check of a whole workflow whose nodes were checked already (staged, or kept from
 * the stored version): they stand in by id, so only the rest and the edges' ends are read.
 */
export function checkWithCheckedNodes(
  data: Record<string, unknown>,
  nodeIds: readonly string[],
): void {
  const nodes = nodeIds.map((id) => ({ id, type: "checked", position: { x: 0, y: 0 }, data: {} }));
  checkWorkflowData({ ...data, nodes });
}
