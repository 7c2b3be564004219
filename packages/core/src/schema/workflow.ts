/**
 * The saved form of a workflow (SPEC §3), as zod schemas; types are inferred from them.
 * Only what SPEC §5 requires must be sent; fields SPEC §3 merely describes are filled in
 * with defaults when left out, so the parsed (stored) form still holds them.
 */
import { z } from "zod";
import { PORT_TYPES } from "../ports/index.ts";
import { NODE_STATUSES, UNTITLED_WORKFLOW } from "./constants.ts";

export const zPosition = z.object({ x: z.number(), y: z.number() });

/** A port as held in node data: its type plus live status. */
export const zPort = z.looseObject({
  id: z.string(),
  // Connections are checked against the catalogue, not this copy: untyped, a port takes any.
  type: z.enum(PORT_TYPES).default("any"),
  multiple: z.boolean().optional(),
  status: z.string().optional(),
  error: z.string().nullable().optional(),
  color: z.string().optional(),
  model: z.string().optional(),
});
export type Port = z.infer<typeof zPort>;

/**
 * A value slot: inputValues and outputValues hold one per port or parameter. JSON drops an
 * undefined value, so a slot may come without one: it is saved as null (as outputs are).
 */
export const zValueSlot = z.looseObject({ value: z.unknown().default(null) });

export const zNodeData = z.looseObject({
  label: z.string().optional(),
  status: z.enum(NODE_STATUSES).optional(),
  error: z.string().nullable().optional(),
  inputs: z.record(z.string(), z.unknown()).optional(),
  outputs: z.record(z.string(), z.unknown()).optional(),
  inputValues: z.record(z.string(), zValueSlot).optional(),
  outputValues: z.record(z.string(), zValueSlot).optional(),
  ports: z.array(zPort).optional(),
  history: z.array(z.unknown()).optional(),
  insightsReport: z.unknown().optional(),
});
export type NodeData = z.infer<typeof zNodeData>;

export const zExtent = z.union([
  z.literal("parent"),
  z.tuple([z.tuple([z.number(), z.number()]), z.tuple([z.number(), z.number()])]),
]);

/** SPEC §3: nodes are saved neither selected nor dragging; left out, that is filled in. */
const zSavedAsFalse = z.literal(false).default(false);

export const zSavedNode = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  position: zPosition,
  data: zNodeData,
  width: z.number().nullable().optional(),
  height: z.number().nullable().optional(),
  parentId: z.string().nullable().optional(),
  extent: zExtent.nullable().optional(),
  expandParent: z.boolean().optional(),
  style: z.record(z.string(), z.unknown()).optional(),
  selected: zSavedAsFalse,
  dragging: zSavedAsFalse,
});
export type SavedNode = z.infer<typeof zSavedNode>;

export const zSavedEdge = z.object({
  id: z.string().min(1),
  source: z.string().min(1),
  target: z.string().min(1),
  sourceHandle: z.string().nullable().optional(),
  targetHandle: z.string().nullable().optional(),
  type: z.string().optional(),
  animated: z.boolean().optional(),
  style: z.record(z.string(), z.unknown()).optional(),
  data: z.looseObject({ dataType: z.enum(PORT_TYPES).optional() }).optional(),
});
export type SavedEdge = z.infer<typeof zSavedEdge>;

export const zWorkflowStats = z.object({
  nodeCount: z.number().int().min(0),
  edgeCount: z.number().int().min(0),
  /** Distinct node types present, sorted. */
  nodeTypes: z.array(z.string()),
});

export const zWorkflowMetadata = z.object({
  id: z.string().nullable().optional(),
  name: z.string().default(UNTITLED_WORKFLOW),
  description: z.string().optional(),
  created: z.string().optional(),
  modified: z.string().optional(),
  version: z.string().optional(),
  isPublic: z.boolean().optional(),
  thumbnail: z.string().nullable().optional(),
  folderId: z.string().nullable().optional(),
  mediaRefs: z.array(z.string()).optional(),
  forkedFrom: z.string().nullable().optional(),
  forkCount: z.number().int().min(0).optional(),
  isTemplate: z.boolean().optional(),
  stats: zWorkflowStats.optional(),
});
export type WorkflowMetadata = z.infer<typeof zWorkflowMetadata>;

export const zMediaManifestEntry = z.object({
  id: z.string(),
  nodeId: z.string(),
  outputKey: z.string(),
  filePath: z.string(),
  fileSize: z.number().int().min(0),
  mimeType: z.string(),
  uploadedAt: z.string().optional(),
});
export type MediaManifestEntry = z.infer<typeof zMediaManifestEntry>;

export const zViewport = z.object({ x: z.number(), y: z.number(), zoom: z.number() });
export type Viewport = z.infer<typeof zViewport>;

export const zSavedWorkflow = z.object({
  version: z.string().min(1),
  /** When it was saved: left out, the time it is checked on its way in. */
  timestamp: z.number().default(() => Date.now()),
  nodes: z.array(zSavedNode),
  edges: z.array(zSavedEdge),
  metadata: zWorkflowMetadata.default(() => ({ name: UNTITLED_WORKFLOW })),
  viewport: zViewport.optional(),
  mediaManifest: z.array(zMediaManifestEntry).optional(),
});
export type SavedWorkflow = z.infer<typeof zSavedWorkflow>;
