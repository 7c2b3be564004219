import { useStoreApi } from "@xyflow/react";
import { useEffect, useRef, useState } from "react";
import { useDocumentStore } from "../document/context.tsx";
import type { CanvasEdge, CanvasNode } from "../document/types.ts";
import { createLiveDrag, type LiveDrag, withLivePositions } from "./live-drag.ts";
import { type Area, drawWires, visibleArea } from "./wire-paths.ts";

/** Beyond this many moved nodes a change redraws every wire instead of the moved ones'. */
export const LIVE_NODE_LIMIT = 200;
/** Once nodes have stopped moving this long, their wires join the others again. */
const SETTLE_MS = 250;

/** A canvas the wires are drawn on, with the ids drawn there (for tests: `wireIds`). */
type WireCanvas = HTMLCanvasElement & { wireIds?: string[] };

/**
 * The wires when zoomed out below the detail threshold, where React Flow holds none
 * (flow-sync.ts): every wire crossing the view on one canvas, one stroke per colour, in the
 * colours of their data types — no component per wire. A second canvas holds the wires of
 * nodes that are moving (a drag moves a few nodes per frame): each frame redraws those
 * alone, and the rest stay on the first canvas until the nodes settle. Panning, zooming,
 * resizing and wiring redraw everything, once per frame at most. Boxes being dragged are
 * drawn where the drag has them, ahead of React Flow: this layer makes the live drag
 * (live-drag.ts) and hands it to the canvas while zoomed out (`onLiveDrag`).
 */
export function ZoomedOutWires({ onLiveDrag }: { onLiveDrag: (drag: LiveDrag | null) => void }) {
  const baseRef = useRef<WireCanvas>(null);
  const liveRef = useRef<WireCanvas>(null);
  const flow = useStoreApi<CanvasNode, CanvasEdge>();
  const documents = useDocumentStore();
  const [liveDrag] = useState(createLiveDrag);
  useEffect(() => {
    onLiveDrag(liveDrag);
    return () => {
      liveDrag.end();
      onLiveDrag(null);
    };
  }, [liveDrag, onLiveDrag]);

  useEffect(() => {
    const base = baseRef.current;
    const live = liveRef.current;
    if (!base || !live) return;
    // What the first canvas shows: React Flow's nodes then, and the wires left off it.
    let drawnNodes: CanvasNode[] = [];
    let drawnEdges: CanvasEdge[] | null = null;
    let drawnView: View | null = null;
    let held = new Set<string>();
    // The wires of each node, for redrawing the moving ones' alone.
    let wiresOf = new Map<string, CanvasEdge[]>();
    let wiresFor: CanvasEdge[] | null = null;
    let frame = 0;
    let settle: ReturnType<typeof setTimeout> | undefined;

    // Where the moving wires were last drawn (flow coordinates): all the second canvas clears,
    // so a drag frame repaints that box, not the whole view.
    let liveBox: Area | null = null;

    /** The canvas sized to the view, cleared (within `only`) and set to flow coordinates. */
    const prepare = (canvas: WireCanvas, only?: Area | null) => {
      const { transform, width, height } = flow.getState();
      const ratio = window.devicePixelRatio || 1;
      const [pixelWidth, pixelHeight] = [Math.round(width * ratio), Math.round(height * ratio)];
      let resized = false;
      if (canvas.width !== pixelWidth || canvas.height !== pixelHeight) {
        canvas.width = pixelWidth;
        canvas.height = pixelHeight;
        resized = true;
      }
      const context = canvas.getContext("2d");
      if (!context) return null;
      const [x, y, zoom] = transform;
      // About one screen pixel however far out, never thinner than a wire at 100 %.
      const lineWidth = Math.max(2, 1 / zoom);
      context.setTransform(ratio * zoom, 0, 0, ratio * zoom, ratio * x, ratio * y);
      if (only === undefined || resized) {
        context.save();
        context.setTransform(1, 0, 0, 1, 0, 0);
        context.clearRect(0, 0, canvas.width, canvas.height);
        context.restore();
      } else if (only) {
        context.clearRect(
          only.left - lineWidth,
          only.top - lineWidth,
          only.right - only.left + 2 * lineWidth,
          only.bottom - only.top + 2 * lineWidth,
        );
      }
      context.lineWidth = lineWidth;
      return { context, area: visibleArea(transform, width, height) };
    };

    const drawAll = (skip: Set<string>) => {
      const state = flow.getState();
      const edges = documents.getState().edges;
      const prepared = prepare(base);
      drawnNodes = state.nodes;
      drawnEdges = edges;
      drawnView = { transform: state.transform, width: state.width, height: state.height };
      held = skip;
      if (!prepared) return;
      const lookup = withLivePositions(state.nodeLookup, liveDrag.positions);
      base.wireIds = drawWires(prepared.context, edges, lookup, prepared.area, skip).ids;
    };

    const drawMoving = (moving: Set<string>) => {
      const prepared = prepare(live, liveBox);
      if (!prepared) return;
      const edges = documents.getState().edges;
      if (wiresFor !== edges) {
        wiresFor = edges;
        wiresOf = new Map();
        for (const edge of edges)
          for (const end of [edge.source, edge.target]) {
            const list = wiresOf.get(end);
            if (list) list.push(edge);
            else wiresOf.set(end, [edge]);
          }
      }
      const mine = new Set<CanvasEdge>();
      for (const id of moving) for (const edge of wiresOf.get(id) ?? []) mine.add(edge);
      const lookup = withLivePositions(flow.getState().nodeLookup, liveDrag.positions);
      const drawn = drawWires(prepared.context, mine, lookup, prepared.area);
      live.wireIds = drawn.ids;
      liveBox = drawn.box;
    };

    const clearMoving = () => {
      prepare(live);
      live.wireIds = [];
      liveBox = null;
    };

    const draw = () => {
      frame = 0;
      const state = flow.getState();
      const moving =
        documents.getState().edges === drawnEdges && sameView(state, drawnView)
          ? movedSince(drawnNodes, state.nodes)
          : null;
      const draggedIds = new Set(liveDrag.positions.keys());
      if (!moving || moving.size + draggedIds.size > LIVE_NODE_LIMIT) {
        drawAll(draggedIds);
        clearMoving();
        if (draggedIds.size > 0) drawMoving(draggedIds);
        return;
      }
      for (const id of draggedIds) moving.add(id);
      if (moving.size === 0) return;
      // Nodes began moving: the first canvas keeps every wire but theirs.
      if (!sameSet(moving, held)) drawAll(moving);
      drawMoving(moving);
      clearTimeout(settle);
      settle = setTimeout(settleMoving, SETTLE_MS);
    };

    const settleMoving = () => {
      settle = undefined;
      drawnEdges = null;
      schedule();
    };

    const schedule = () => {
      frame ||= requestAnimationFrame(draw);
    };

    drawAll(new Set());
    clearMoving();
    const stopFlow = flow.subscribe((state, before) => {
      if (
        state.nodes !== before.nodes ||
        state.nodeLookup !== before.nodeLookup ||
        !sameView(state, before)
      )
        schedule();
    });
    const stopDocument = documents.subscribe((state, before) => {
      if (state.edges !== before.edges) schedule();
    });
    const stopLive = liveDrag.subscribe(schedule);
    return () => {
      stopFlow();
      stopDocument();
      stopLive();
      cancelAnimationFrame(frame);
      clearTimeout(settle);
    };
  }, [flow, documents, liveDrag]);

  return (
    <>
      <canvas ref={baseRef} className="zoomed-out-wires" />
      <canvas ref={liveRef} className="zoomed-out-wires moving" />
    </>
  );
}

interface View {
  transform: [number, number, number];
  width: number;
  height: number;
}

/** Whether two states show the same part of the canvas at the same size. */
const sameView = (a: View, b: View | null): boolean =>
  b !== null && a.transform === b.transform && a.width === b.width && a.height === b.height;

/**
 * The ids of nodes that are new objects in `now` (moved, resized, edited), or null when the
 * nodes themselves changed (added, removed, reordered).
 */
function movedSince(before: readonly CanvasNode[], now: readonly CanvasNode[]): Set<string> | null {
  if (before === now) return new Set();
  if (before.length !== now.length) return null;
  const moved = new Set<string>();
  for (let index = 0; index < now.length; index++) {
    const node = now[index] as CanvasNode;
    if (node === before[index]) continue;
    if (node.id !== before[index]?.id) return null;
    moved.add(node.id);
    if (moved.size > LIVE_NODE_LIMIT) return moved;
  }
  return moved;
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const item of a) if (!b.has(item)) return false;
  return true;
}
