import { getNodeDefinition } from "@atelier/core";
import { Position } from "@xyflow/react";
import { fieldsOf } from "../nodes/schema-fields.ts";
import type { CanvasNode } from "./types.ts";

/*
 * Size hints for nodes that have not been drawn yet (opened, imported, restored).
 *
 * React Flow culls with `onlyRenderVisibleElements`, but a node it has never measured has no
 * handle bounds, and such a node is always rendered once so it can be measured. Opening a
 * 500-node workflow therefore mounted, laid out and removed 500 full cards in one frame
 * (~1 s at 5 MB). A node that carries a size (`measured`) and its handles (`handles`, React
 * Flow's own fields for nodes rendered before they are measured) is culled from the start
 * and only the nodes in view are drawn.
 *
 * The hints give way to measurements: once a node is drawn the document store drops its
 * `handles` (`drawn`, batched per task), so React Flow keeps the handle bounds it measures
 * instead of taking the hint back whenever the node object changes.
 */

/** Card width and the geometry of the ports list (styles.css `.node`, `.port`, `.handle`). */
const CARD_WIDTH = 320;
const HEADER = 40;
const RUN_CONTROLS = 29;
const PORT_PITCH = 20;
const HANDLE = 12;
/** Generous heights per field kind, so a card is never thought smaller than it is. */
const FIELD_HEIGHT = { textarea: 96, other: 52 } as const;
const OUTPUT = 64;
const FALLBACK_HEIGHT = 240;

type Handles = NonNullable<CanvasNode["handles"]>;

function cardHints(type: string): { width: number; height: number; handles: Handles } | null {
  const definition = getNodeDefinition(type);
  if (!definition) return null;
  const top = HEADER + (definition.run.kind === "none" ? 0 : RUN_CONTROLS);
  const rows = Math.max(definition.inputs.length, definition.outputs.length, 1);
  const column = (count: number) => ((rows - count) * PORT_PITCH) / 2;
  const handles: Handles = [
    ...definition.inputs.map((port, index) => ({
      id: port.id,
      type: "target" as const,
      position: Position.Left,
      x: -HANDLE / 2,
      y: top + column(definition.inputs.length) + index * PORT_PITCH,
      width: HANDLE,
      height: HANDLE,
    })),
    ...definition.outputs.map((port, index) => ({
      id: port.id,
      type: "source" as const,
      position: Position.Right,
      x: CARD_WIDTH - HANDLE / 2,
      y: top + column(definition.outputs.length) + index * PORT_PITCH,
      width: HANDLE,
      height: HANDLE,
    })),
  ];
  const fields = fieldsOf(type).filter((field) => field.essential);
  const form = fields.reduce(
    (sum, field) => sum + (field.kind === "textarea" ? FIELD_HEIGHT.textarea : FIELD_HEIGHT.other),
    fields.length > 0 ? 24 : 0,
  );
  const height = top + rows * PORT_PITCH + 16 + form + OUTPUT;
  return { width: CARD_WIDTH, height, handles };
}

const cache = new Map<string, ReturnType<typeof cardHints>>();
const hintsOf = (type: string) => {
  if (!cache.has(type)) cache.set(type, cardHints(type));
  return cache.get(type) ?? null;
};

/** Where a card of this type has its handles, relative to its top-left corner. */
export const handleHints = (type: string): Handles => hintsOf(type)?.handles ?? [];

/** A positive size, or undefined. */
const size = (value: unknown) =>
  typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;

/**
 * The node with a size and handles to cull by until it is measured; nodes already measured
 * or carrying handles are returned as they are. A saved size (`width`/`height` are written
 * from the measured size) is used as the hint and no longer pins the card's size.
 */
export function withSizeHint(node: CanvasNode): CanvasNode {
  if (node.measured?.width !== undefined || node.handles) return node;
  const type = node.type ?? "";
  if (type === "group") {
    const width = size(node.width) ?? size(node.style?.width);
    const height = size(node.height) ?? size(node.style?.height);
    return width && height ? { ...node, measured: { width, height }, handles: [] } : node;
  }
  const card = hintsOf(type);
  const { width: savedWidth, height: savedHeight, ...rest } = node;
  const width = size(savedWidth) ?? card?.width ?? CARD_WIDTH;
  const height = size(savedHeight) ?? card?.height ?? FALLBACK_HEIGHT;
  return { ...rest, measured: { width, height }, handles: card?.handles ?? [] };
}

/** Without the hint's handles (the node has been drawn or measured). */
export function withoutHandles(node: CanvasNode): CanvasNode {
  if (!node.handles) return node;
  const { handles: _hint, ...rest } = node;
  return rest;
}
