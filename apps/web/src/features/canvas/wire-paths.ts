import type { InternalNode } from "@xyflow/react";
import { PORT_COLORS } from "../document/factory.ts";
import type { CanvasEdge, CanvasNode } from "../document/types.ts";

/** A rectangle of the canvas in flow coordinates. */
export interface Area {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A wire's two ends in flow coordinates: out of the source's right, into the target's left. */
export interface WireEnds {
  sx: number;
  sy: number;
  tx: number;
  ty: number;
}

type Lookup = Pick<ReadonlyMap<string, InternalNode<CanvasNode>>, "get">;

const FALLBACK_COLOUR = PORT_COLORS.any;

/** The colour a wire is drawn in: its data type's (UX.md), as React Flow draws it. */
export function wireColour(edge: CanvasEdge): string {
  const stroke = edge.style?.stroke;
  if (typeof stroke === "string") return stroke;
  const type = edge.data?.dataType;
  return (type && PORT_COLORS[type]) || FALLBACK_COLOUR;
}

/**
 * Where a wire starts and ends: the middle of its handles as React Flow measured them (plain
 * boxes keep invisible port marks for that, PortMarkers.tsx), else the middle of the node's
 * side. Null when an end is not on the canvas (hidden, or not handed to React Flow yet).
 */
export function wireEnds(edge: CanvasEdge, lookup: Lookup): WireEnds | null {
  const source = lookup.get(edge.source);
  const target = lookup.get(edge.target);
  if (!source || !target || source.hidden || target.hidden) return null;
  const from = source.internals.positionAbsolute;
  const to = target.internals.positionAbsolute;
  const out = source.internals.handleBounds?.source?.find(
    (handle) => handle.id === edge.sourceHandle,
  );
  const into = target.internals.handleBounds?.target?.find(
    (handle) => handle.id === edge.targetHandle,
  );
  return {
    sx: from.x + (out ? out.x + out.width : (source.measured.width ?? 0)),
    sy: from.y + (out ? out.y + out.height / 2 : (source.measured.height ?? 0) / 2),
    tx: to.x + (into ? into.x : 0),
    ty: to.y + (into ? into.y + into.height / 2 : (target.measured.height ?? 0) / 2),
  };
}

/** How far a wire's control points sit from its ends (React Flow's bezier, curvature 0.25). */
function reach({ sx, tx }: WireEnds): number {
  const distance = tx - sx;
  return distance >= 0 ? distance / 2 : 0.25 * 25 * Math.sqrt(-distance);
}

/** How far a wire's curve goes outside its ends horizontally: only a backward wire loops out. */
const overshoot = (ends: WireEnds): number => (ends.tx >= ends.sx ? 0 : reach(ends));

/** Whether any of a wire's curve can fall inside `area`. */
export function crosses(ends: WireEnds, area: Area): boolean {
  const bend = overshoot(ends);
  return (
    Math.min(ends.sx, ends.tx) - bend <= area.right &&
    Math.max(ends.sx, ends.tx) + bend >= area.left &&
    Math.min(ends.sy, ends.ty) <= area.bottom &&
    Math.max(ends.sy, ends.ty) >= area.top
  );
}

/** Whether a node's box reaches into `area`. */
function touches(id: string, lookup: Lookup, area: Area): boolean {
  const node = lookup.get(id);
  if (!node) return false;
  const { x, y } = node.internals.positionAbsolute;
  return (
    x <= area.right &&
    x + (node.measured.width ?? 0) >= area.left &&
    y <= area.bottom &&
    y + (node.measured.height ?? 0) >= area.top
  );
}

/** Adds a wire's curve to the current path (the shape React Flow's default wire has). */
export function traceWire(context: CanvasRenderingContext2D, ends: WireEnds): void {
  const bend = reach(ends);
  context.moveTo(ends.sx, ends.sy);
  context.bezierCurveTo(ends.sx + bend, ends.sy, ends.tx - bend, ends.ty, ends.tx, ends.ty);
}

/** The visible canvas in flow coordinates, for a React Flow transform and size. */
export function visibleArea(
  [x, y, zoom]: readonly [number, number, number],
  width: number,
  height: number,
): Area {
  return {
    left: -x / zoom,
    top: -y / zoom,
    right: (width - x) / zoom,
    bottom: (height - y) / zoom,
  };
}

/** What drawWires drew: the wires' ids, and the box holding them in flow coordinates. */
export interface DrawnWires {
  ids: string[];
  box: Area | null;
}

/** `box` grown to hold a wire's curve. */
function holding(box: Area | null, ends: WireEnds): Area {
  const bend = overshoot(ends);
  const left = Math.min(ends.sx, ends.tx) - bend;
  const right = Math.max(ends.sx, ends.tx) + bend;
  const top = Math.min(ends.sy, ends.ty);
  const bottom = Math.max(ends.sy, ends.ty);
  if (!box) return { left, top, right, bottom };
  return {
    left: Math.min(box.left, left),
    top: Math.min(box.top, top),
    right: Math.max(box.right, right),
    bottom: Math.max(box.bottom, bottom),
  };
}

/**
 * Draws `edges` that cross `area` onto `context` (already transformed to flow coordinates),
 * one stroke per colour, and answers the ids of those drawn and the box they fill.
 */
export function drawWires(
  context: CanvasRenderingContext2D,
  edges: Iterable<CanvasEdge>,
  lookup: Lookup,
  area: Area,
  skip?: ReadonlySet<string>,
): DrawnWires {
  const byColour = new Map<string, WireEnds[]>();
  const ids: string[] = [];
  let box: Area | null = null;
  for (const edge of edges) {
    if (skip && (skip.has(edge.source) || skip.has(edge.target))) continue;
    const ends = wireEnds(edge, lookup);
    if (!ends) continue;
    // An end's node in view counts even when the wire itself is just off screen, as React
    // Flow's own choice of wires does (wires-in-view.ts).
    if (
      !crosses(ends, area) &&
      !touches(edge.source, lookup, area) &&
      !touches(edge.target, lookup, area)
    )
      continue;
    const colour = wireColour(edge);
    const group = byColour.get(colour);
    if (group) group.push(ends);
    else byColour.set(colour, [ends]);
    ids.push(edge.id);
    box = holding(box, ends);
  }
  for (const [colour, group] of byColour) {
    context.strokeStyle = colour;
    context.beginPath();
    for (const ends of group) traceWire(context, ends);
    context.stroke();
  }
  return { ids, box };
}
