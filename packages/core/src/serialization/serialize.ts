import { getNodeDefinition } from "../catalogue/registry.ts";
import { LIMITS } from "../limits.ts";
import type { PortType } from "../ports/index.ts";
import { UNTITLED_WORKFLOW, WORKFLOW_VERSION } from "../schema/constants.ts";
import { migrateWorkflow } from "../schema/migrations.ts";
import type {
  MediaManifestEntry,
  SavedEdge,
  SavedNode,
  SavedWorkflow,
  Viewport,
  WorkflowMetadata,
} from "../schema/workflow.ts";
import { dataUrlMimeType, isDataUrl } from "./media.ts";
import { truncateText } from "./text.ts";

/** A node as the editor holds it; React Flow's extra fields are dropped on save. */
export interface EditorNode {
  id: string;
  type?: string;
  position: { x: number; y: number };
  data: Record<string, unknown>;
  width?: number | null;
  height?: number | null;
  measured?: { width?: number; height?: number };
  parentId?: string | null;
  extent?: SavedNode["extent"];
  expandParent?: boolean;
  style?: object;
  selected?: boolean;
  dragging?: boolean;
}

export interface EditorEdge {
  id: string;
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
  type?: string;
  animated?: boolean;
  style?: object;
  data?: Record<string, unknown>;
}

export interface WorkflowDocument {
  nodes: readonly EditorNode[];
  edges: readonly EditorEdge[];
  metadata?: Partial<WorkflowMetadata>;
  viewport?: Viewport;
  mediaManifest?: MediaManifestEntry[];
}

export interface SerializeOptions {
  /** Clock for `timestamp` and `metadata.modified` (ms since epoch). */
  now?: number;
}

/** Drops embedded data over 1 MB; truncates long text (SPEC §9). Returns undefined to drop. */
function cleanOutputValue(value: unknown): unknown {
  if (typeof value === "string") {
    if (isDataUrl(value))
      return value.length > LIMITS.text.maxEmbeddedOutputChars ? undefined : value;
    return truncateText(value);
  }
  if (Array.isArray(value)) {
    return value.map(cleanOutputValue).filter((item) => item !== undefined);
  }
  if (value && typeof value === "object" && typeof (value as { url?: unknown }).url === "string") {
    const url = cleanOutputValue((value as { url: string }).url);
    return url === undefined ? undefined : { ...value, url };
  }
  return value;
}

function cleanRecord<T>(record: Record<string, T> | undefined, clean: (value: T) => T | undefined) {
  if (!record) return record;
  const result: Record<string, T> = {};
  for (const [key, value] of Object.entries(record)) {
    const cleaned = clean(value);
    if (cleaned !== undefined) result[key] = cleaned;
  }
  return result;
}

/** Keeps the newest 20 history entries and no more than 102,400 characters of them. */
function trimHistory(history: unknown[]): unknown[] {
  let kept = history.slice(-LIMITS.text.historyEntries);
  while (kept.length > 0 && JSON.stringify(kept).length > LIMITS.text.historySizeChars)
    kept = kept.slice(1);
  return kept;
}

function serializeNodeData(data: Record<string, unknown>): SavedNode["data"] {
  const result: Record<string, unknown> = { ...data };
  const outputs = data.outputs as Record<string, unknown> | undefined;
  if (outputs && typeof outputs === "object")
    result.outputs = cleanRecord(outputs, cleanOutputValue);
  const outputValues = data.outputValues as Record<string, { value: unknown }> | undefined;
  if (outputValues && typeof outputValues === "object") {
    result.outputValues = cleanRecord(outputValues, (slot) => {
      if (!slot || typeof slot !== "object") return slot;
      const value = cleanOutputValue(slot.value);
      return { ...slot, value: value === undefined ? null : value };
    });
  }
  if (Array.isArray(data.history)) result.history = trimHistory(data.history);
  return result as SavedNode["data"];
}

/** Assigns only defined values, so that a saved node carries no `undefined` fields. */
function defined<T extends object>(target: T, extra: Record<string, unknown>): T {
  for (const [key, value] of Object.entries(extra)) {
    if (value !== undefined) (target as Record<string, unknown>)[key] = value;
  }
  return target;
}

/** Every saved-node field of SPEC §3 is written; absent ones as null, false or {}. */
export function serializeNode(node: EditorNode): SavedNode {
  return {
    id: node.id,
    type: node.type ?? "default",
    position: { x: node.position.x, y: node.position.y },
    data: serializeNodeData(node.data ?? {}),
    width: node.width ?? node.measured?.width ?? null,
    height: node.height ?? node.measured?.height ?? null,
    parentId: node.parentId ?? null,
    extent: node.extent ?? null,
    expandParent: node.expandParent ?? false,
    style: { ...node.style },
    selected: false,
    dragging: false,
  };
}

/** The data type an edge carries: the type of its source port in the catalogue. */
function sourcePortType(edge: EditorEdge, sourceType: string | undefined): PortType | undefined {
  const definition = sourceType ? getNodeDefinition(sourceType) : undefined;
  if (!definition) return undefined;
  const port = edge.sourceHandle
    ? definition.outputs.find((output) => output.id === edge.sourceHandle)
    : definition.outputs.length === 1
      ? definition.outputs[0]
      : undefined;
  return port?.type;
}

/** Every saved-edge field of SPEC §3, with `data.dataType` filled from the source port. */
export function serializeEdge(edge: EditorEdge, sourceType?: string): SavedEdge {
  const dataType =
    (edge.data?.dataType as PortType | undefined) ?? sourcePortType(edge, sourceType);
  return {
    id: edge.id,
    source: edge.source,
    target: edge.target,
    sourceHandle: edge.sourceHandle ?? null,
    targetHandle: edge.targetHandle ?? null,
    type: edge.type ?? "default",
    animated: edge.animated ?? false,
    style: { ...edge.style },
    data: dataType ? { ...edge.data, dataType } : { ...edge.data },
  };
}

export function workflowStats(nodes: readonly { type?: string }[], edgeCount: number) {
  return {
    nodeCount: nodes.length,
    edgeCount,
    nodeTypes: [...new Set(nodes.map((node) => node.type ?? "default"))].sort(),
  };
}

/**
 * The saved form of SPEC §3: version "1.0.0", timestamp, nodes, edges, metadata (+ viewport,
 * manifest). Takes a document, or the positional form `(nodes, edges, metadata?, viewport?)`.
 */
export function serializeWorkflow(
  document: WorkflowDocument,
  options?: SerializeOptions,
): SavedWorkflow;
export function serializeWorkflow(
  nodes: readonly EditorNode[],
  edges: readonly EditorEdge[],
  metadata?: Partial<WorkflowMetadata>,
  viewport?: Viewport,
): SavedWorkflow;
export function serializeWorkflow(
  first: WorkflowDocument | readonly EditorNode[],
  second?: SerializeOptions | readonly EditorEdge[],
  metadata?: Partial<WorkflowMetadata>,
  viewport?: Viewport,
): SavedWorkflow {
  if (!Array.isArray(first)) {
    return serializeDocument(
      first as WorkflowDocument,
      (second as SerializeOptions | undefined) ?? {},
    );
  }
  const document: WorkflowDocument = {
    nodes: first,
    edges: (second as readonly EditorEdge[] | undefined) ?? [],
  };
  if (metadata) document.metadata = metadata;
  if (viewport) document.viewport = viewport;
  return serializeDocument(document, {});
}

function serializeDocument(document: WorkflowDocument, options: SerializeOptions): SavedWorkflow {
  const now = options.now ?? Date.now();
  const nodes = document.nodes.map(serializeNode);
  const typeOf = new Map(document.nodes.map((node) => [node.id, node.type]));
  const edges = document.edges.map((edge) => serializeEdge(edge, typeOf.get(edge.source)));
  const metadata: WorkflowMetadata = {
    ...document.metadata,
    name: document.metadata?.name ?? UNTITLED_WORKFLOW,
    modified: new Date(now).toISOString(),
    stats: workflowStats(nodes, edges.length),
  };
  return defined(
    { version: WORKFLOW_VERSION, timestamp: now, nodes, edges, metadata },
    { viewport: document.viewport, mediaManifest: document.mediaManifest },
  );
}

/** Back to the editor's form: migrated, with the legacy `groupId` removed from node data. */
export function deserializeWorkflow(saved: SavedWorkflow): Required<
  Pick<WorkflowDocument, "metadata">
> & {
  nodes: SavedNode[];
  edges: SavedEdge[];
  viewport?: Viewport;
  mediaManifest?: MediaManifestEntry[];
} {
  const migrated = migrateWorkflow(
    saved as unknown as Record<string, unknown>,
  ) as unknown as SavedWorkflow;
  const nodes = migrated.nodes.map((node) => {
    if (!("groupId" in node.data))
      return { ...node, selected: false as const, dragging: false as const };
    const { groupId: _legacy, ...data } = node.data;
    return { ...node, data, selected: false as const, dragging: false as const };
  });
  return defined(
    { nodes, edges: [...migrated.edges], metadata: migrated.metadata },
    { viewport: migrated.viewport, mediaManifest: migrated.mediaManifest },
  );
}

export const VIDEO_PLACEHOLDER_PREFIX = "[[atelier-video-placeholder:";

/**
 * A lightweight copy for quick saves: every embedded video is replaced by a marker, kept
 * aside in `stash`, and put back by `restoreVideoPlaceholders` (SPEC §4).
 */
export function toLightweight(saved: SavedWorkflow): { workflow: SavedWorkflow; stash: string[] } {
  const stash: string[] = [];
  const replace = (value: unknown): unknown => {
    if (isDataUrl(value) && dataUrlMimeType(value)?.startsWith("video/")) {
      stash.push(value);
      return `${VIDEO_PLACEHOLDER_PREFIX}${stash.length - 1}]]`;
    }
    if (Array.isArray(value)) return value.map(replace);
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, replace(inner)]));
    }
    return value;
  };
  const nodes = saved.nodes.map((node) => ({
    ...node,
    data: replace(node.data) as SavedNode["data"],
  }));
  return { workflow: { ...saved, nodes }, stash };
}

/** Puts the stashed videos back where `toLightweight` left markers. */
export function restoreVideoPlaceholders(
  saved: SavedWorkflow,
  stash: readonly string[],
): SavedWorkflow {
  const restore = (value: unknown): unknown => {
    if (typeof value === "string" && value.startsWith(VIDEO_PLACEHOLDER_PREFIX)) {
      const index = Number.parseInt(value.slice(VIDEO_PLACEHOLDER_PREFIX.length), 10);
      return stash[index] ?? value;
    }
    if (Array.isArray(value)) return value.map(restore);
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, restore(inner)]));
    }
    return value;
  };
  return {
    ...saved,
    nodes: saved.nodes.map((node) => ({ ...node, data: restore(node.data) as SavedNode["data"] })),
  };
}
