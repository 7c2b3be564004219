import { WORKFLOW_VERSION } from "../schema/constants.ts";
import { CURRENT_MAJOR, majorVersion } from "../schema/migrations.ts";

export interface WorkflowValidation {
  valid: boolean;
  errors: string[];
  warnings: string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isNonEmptyString = (value: unknown): value is string =>
  typeof value === "string" && value.length > 0;
const isFiniteNumber = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value);

/** Checks the structure SPEC §5 requires of a loaded or imported workflow. */
export function validateWorkflow(data: unknown): WorkflowValidation {
  const errors: string[] = [];
  const warnings: string[] = [];
  if (!isRecord(data))
    return { valid: false, errors: ["Workflow data must be an object"], warnings };

  if (!isNonEmptyString(data.version)) {
    errors.push("Missing version");
  } else {
    const major = majorVersion(data.version);
    if (major !== CURRENT_MAJOR) {
      warnings.push(
        `Workflow version ${data.version} differs from the supported version ${WORKFLOW_VERSION}`,
      );
    }
  }

  const nodeIds = new Set<string>();
  if (!Array.isArray(data.nodes)) {
    errors.push("nodes must be an array");
  } else {
    data.nodes.forEach((node: unknown, index) => {
      if (!isRecord(node) || !isNonEmptyString(node.id)) {
        errors.push(`Node at index ${index} is missing an id`);
        return;
      }
      nodeIds.add(node.id);
      if (!isNonEmptyString(node.type)) errors.push(`Node ${node.id} is missing a type`);
      const position = node.position;
      if (!isRecord(position) || !isFiniteNumber(position.x) || !isFiniteNumber(position.y)) {
        errors.push(`Node ${node.id} has an invalid position`);
      }
      if (!isRecord(node.data)) errors.push(`Node ${node.id} is missing data`);
    });
  }

  if (!Array.isArray(data.edges)) {
    errors.push("edges must be an array");
  } else {
    data.edges.forEach((edge: unknown, index) => {
      if (!isRecord(edge) || !isNonEmptyString(edge.id)) {
        errors.push(`Edge at index ${index} is missing an id`);
        return;
      }
      if (!isNonEmptyString(edge.source) || !isNonEmptyString(edge.target)) {
        errors.push(`Edge ${edge.id} is missing a source or target`);
        return;
      }
      if (Array.isArray(data.nodes)) {
        for (const end of [edge.source, edge.target]) {
          if (!nodeIds.has(end)) errors.push(`Edge ${edge.id} references missing node ${end}`);
        }
      }
    });
  }

  return { valid: errors.length === 0, errors, warnings };
}

/** Throws "Invalid workflow data: …" listing every problem; returns the data when valid. */
export function assertValidWorkflow<T>(data: T): T {
  const { valid, errors } = validateWorkflow(data);
  if (!valid) throw new Error(`Invalid workflow data: ${errors.join("; ")}`);
  return data;
}

/**
 * Keeps what can be kept of damaged data (SPEC §5): nodes without an id, and edges without
 * an id, source or target or pointing at a missing node, are dropped. So that the result
 * always validates, a missing version becomes the current one, a node without a type is
 * dropped, a bad position becomes (0, 0) and missing data becomes `{}`.
 */
export function recoverWorkflow(data: unknown): Record<string, unknown> & {
  version: string;
  nodes: Record<string, unknown>[];
  edges: Record<string, unknown>[];
} {
  const source = isRecord(data) ? data : {};
  const nodes: Record<string, unknown>[] = [];
  const ids = new Set<string>();
  for (const node of Array.isArray(source.nodes) ? source.nodes : []) {
    if (!isRecord(node) || !isNonEmptyString(node.id)) continue;
    if (ids.has(node.id)) continue;
    ids.add(node.id);
    const position = isRecord(node.position) ? node.position : {};
    nodes.push({
      ...node,
      type: isNonEmptyString(node.type) ? node.type : "default",
      position: {
        x: isFiniteNumber(position.x) ? position.x : 0,
        y: isFiniteNumber(position.y) ? position.y : 0,
      },
      data: isRecord(node.data) ? node.data : {},
    });
  }
  const edges: Record<string, unknown>[] = [];
  const edgeIds = new Set<string>();
  for (const edge of Array.isArray(source.edges) ? source.edges : []) {
    if (!isRecord(edge) || !isNonEmptyString(edge.id) || edgeIds.has(edge.id)) continue;
    if (!isNonEmptyString(edge.source) || !isNonEmptyString(edge.target)) continue;
    if (!ids.has(edge.source) || !ids.has(edge.target)) continue;
    edgeIds.add(edge.id);
    edges.push(edge);
  }
  return {
    ...source,
    version: isNonEmptyString(source.version) ? source.version : WORKFLOW_VERSION,
    nodes,
    edges,
  };
}

export const INVALID_WORKFLOW_FILE = "Invalid workflow file format";

/** Parses an imported file (its text, or already-parsed JSON): it needs version, nodes and edges. */
export function parseWorkflowFile(text: unknown): Record<string, unknown> & {
  version: unknown;
  nodes: unknown[];
  edges: unknown[];
} {
  let parsed: unknown = text;
  if (typeof text === "string") {
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(INVALID_WORKFLOW_FILE);
    }
  }
  if (
    !isRecord(parsed) ||
    parsed.version === undefined ||
    parsed.version === null ||
    !Array.isArray(parsed.nodes) ||
    !Array.isArray(parsed.edges)
  ) {
    throw new Error(INVALID_WORKFLOW_FILE);
  }
  return parsed as Record<string, unknown> & {
    version: unknown;
    nodes: unknown[];
    edges: unknown[];
  };
}
