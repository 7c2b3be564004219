import type { CanvasEdge, CanvasNode, CanvasNodeData } from "../../src/features/document/types.ts";

/* Graph fixtures shared by the web tests. */

export const node = (id: string, type: string, data: CanvasNodeData = {}): CanvasNode => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data,
});

/** A wire from a source's output port to a target's input port. */
export const wire = (source: string, sourceHandle: string, target: string, targetHandle: string) =>
  ({
    id: `${source}-${target}-${targetHandle}`,
    source,
    sourceHandle,
    target,
    targetHandle,
  }) as CanvasEdge;

/** Parameter slots (`inputValues`) from plain values. */
export const values = (record: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, { value }]));
