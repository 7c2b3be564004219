import { MiniMap, Panel, useReactFlow, useStoreApi } from "@xyflow/react";
import { type PointerEvent, useEffect, useRef } from "react";
import { useDocument } from "../document/context.tsx";
import type { CanvasEdge, CanvasNode } from "../document/types.ts";
import { boxesChanged } from "./boxes-changed.ts";

/** Above this many nodes the minimap is one canvas instead of one React component per node. */
export const MINIMAP_NODE_LIMIT = 300;
const WIDTH = 200;
const HEIGHT = 150;
/** Redraws at most this often while nodes move (a drag changes positions every frame). */
const REDRAW_MS = 150;

const PANEL_STYLE = { marginLeft: 56 };
// The document's count, not React Flow's: a large load reaches React Flow in steps, and
// its first step must not mount a minimap component per node only to drop them next task.
const many = (state: { nodes: unknown[] }) => state.nodes.length > MINIMAP_NODE_LIMIT;

/**
 * The minimap: React Flow's own for small graphs; for large ones a single canvas redrawn at
 * most every 150 ms. React Flow's MiniMap mounts a component with a store selector per node,
 * so at 2000 nodes every drag move ran 2000 selectors and re-measured the graph's bounds
 * (performance.md: O(1) drag path). Click or drag on it to move the view there.
 */
export function OverviewMap() {
  const large = useDocument(many);
  if (!large)
    return (
      <MiniMap position="bottom-left" style={PANEL_STYLE} pannable zoomable aria-label="Minimap" />
    );
  return <CanvasMiniMap />;
}

function CanvasMiniMap() {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const flow = useStoreApi<CanvasNode, CanvasEdge>();
  const { setCenter } = useReactFlow();
  const frame = useRef({ x: 0, y: 0, scale: 1 });

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let last = 0;
    const draw = () => {
      timer = null;
      last = performance.now();
      const canvas = canvasRef.current;
      const context = canvas?.getContext("2d");
      if (!canvas || !context) return;
      const { nodeLookup, transform, width, height } = flow.getState();
      const view = {
        x: -transform[0] / transform[2],
        y: -transform[1] / transform[2],
        width: width / transform[2],
        height: height / transform[2],
      };
      let [x1, y1, x2, y2] = [view.x, view.y, view.x + view.width, view.y + view.height];
      for (const node of nodeLookup.values()) {
        const { x, y } = node.internals.positionAbsolute;
        x1 = Math.min(x1, x);
        y1 = Math.min(y1, y);
        x2 = Math.max(x2, x + (node.measured.width ?? 0));
        y2 = Math.max(y2, y + (node.measured.height ?? 0));
      }
      const scale = Math.min(WIDTH / (x2 - x1 || 1), HEIGHT / (y2 - y1 || 1));
      const offset = {
        x: x1 - (WIDTH / scale - (x2 - x1)) / 2,
        y: y1 - (HEIGHT / scale - (y2 - y1)) / 2,
      };
      frame.current = { ...offset, scale };
      context.clearRect(0, 0, WIDTH, HEIGHT);
      context.fillStyle = "rgba(148, 163, 184, 0.55)";
      for (const node of nodeLookup.values()) {
        if (node.hidden) continue;
        const { x, y } = node.internals.positionAbsolute;
        context.fillRect(
          (x - offset.x) * scale,
          (y - offset.y) * scale,
          Math.max(1, (node.measured.width ?? 0) * scale),
          Math.max(1, (node.measured.height ?? 0) * scale),
        );
      }
      context.strokeStyle = "rgba(96, 165, 250, 0.9)";
      context.strokeRect(
        (view.x - offset.x) * scale,
        (view.y - offset.y) * scale,
        view.width * scale,
        view.height * scale,
      );
    };
    const schedule = () => {
      if (timer !== null) return;
      timer = setTimeout(draw, Math.max(0, REDRAW_MS - (performance.now() - last)));
    };
    draw();
    const stop = flow.subscribe((state, before) => {
      // Typing into a node changes no box: nothing to draw again.
      if (
        state.nodeLookup !== before.nodeLookup ||
        (state.nodes !== before.nodes && boxesChanged(before.nodes, state.nodes)) ||
        state.transform !== before.transform ||
        state.width !== before.width
      )
        schedule();
    });
    return () => {
      stop();
      if (timer !== null) clearTimeout(timer);
    };
  }, [flow]);

  const moveTo = (event: PointerEvent<HTMLCanvasElement>) => {
    if (event.type === "pointermove" && event.buttons !== 1) return;
    const box = event.currentTarget.getBoundingClientRect();
    const { x, y, scale } = frame.current;
    const zoom = flow.getState().transform[2];
    void setCenter(x + (event.clientX - box.left) / scale, y + (event.clientY - box.top) / scale, {
      zoom,
    });
  };

  return (
    <Panel position="bottom-left" style={PANEL_STYLE} className="react-flow__minimap overview-map">
      <canvas
        ref={canvasRef}
        width={WIDTH}
        height={HEIGHT}
        aria-label="Minimap"
        onPointerDown={moveTo}
        onPointerMove={moveTo}
      />
    </Panel>
  );
}
