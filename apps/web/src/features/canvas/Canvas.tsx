import type { NodeDefinition } from "@atelier/core";
import {
  Background,
  BackgroundVariant,
  type Connection,
  type FinalConnectionState,
  type NodeChange,
  type OnConnectStartParams,
  ReactFlow,
  useReactFlow,
  useStoreApi,
} from "@xyflow/react";
import { type DragEvent, type MouseEvent, useCallback, useEffect, useRef, useState } from "react";
import { lazyPart, PART_FAILED } from "../../ui/lazy-part.tsx";
import { notify } from "../../ui/notify.ts";
import { useDocument, useDocumentStore } from "../document/context.tsx";
import type { CanvasEdge, CanvasNode } from "../document/types.ts";
import { ZoomedOut } from "../nodes/detail-level.ts";
import { nodeTypes } from "../nodes/node-types.ts";
import { NODE_DRAG_TYPE } from "../palette/categories.ts";
import type { CompatibleChoice, PendingWire } from "../palette/compatible.ts";
import { usePersistenceIfAny } from "../persistence/context.tsx";
import { usePreferences } from "../preferences/store.ts";
import { isViewOnly, useWorkspace } from "../workspace/store.ts";
import { holdDraggedNodes } from "./drag-hold.ts";
import { useFlowSync } from "./flow-sync.ts";
import type { LiveDrag } from "./live-drag.ts";
import { addNodeNear, loadPlacement } from "./place-node.ts";
import { SelectionToolbar } from "./SelectionToolbar.tsx";
import { useNoSelectionListener } from "./selection-listener.ts";
import { shortcutFor } from "./shortcuts.ts";
import { ZoomControls } from "./ZoomControls.tsx";

interface SearchState {
  screen: { x: number; y: number };
  flow: { x: number; y: number };
  wire?: PendingWire;
  choices?: CompatibleChoice[];
}

// Opened by a double-click, a dropped wire or "?": not part of the first paint (DESIGN §7).
const NodeSearch = lazyPart(() =>
  import("../palette/NodeSearch.tsx").then((module) => module.NodeSearch),
);
/** The shortcut sheet ("?" here, or the top bar's button: Editor.tsx), one part for both. */
export const ShortcutSheetPart = lazyPart(() =>
  import("./ShortcutSheet.tsx").then((module) => module.ShortcutSheet),
);
// The minimap follows the canvas's first paint by a moment.
// Zoomed out, the wires are drawn on a canvas of their own (ZoomedOutWires.tsx).
const ZoomedOutWires = lazyPart(() =>
  import("./ZoomedOutWires.tsx").then((module) => module.ZoomedOutWires),
);
const KeyboardWiring = lazyPart(() =>
  import("../keyboard/KeyboardWiring.tsx").then((module) => module.KeyboardWiring),
);
// The empty canvas's hints and templates: off the first load of a canvas with work on it.
const EmptyCanvas = lazyPart(() =>
  import("./EmptyCanvas.tsx").then((module) => module.EmptyCanvas),
);
// A node's menu on a right-click or a long-press: wired after the first paint, like the keys.
const NodeMenuWiring = lazyPart(() =>
  import("./NodeMenu.tsx").then((module) => module.NodeMenuWiring),
);
const OverviewMap = lazyPart(() =>
  import("./OverviewMap.tsx").then((module) => module.OverviewMap),
);

const GRID: [number, number] = [20, 20];
const DELETE_KEYS = ["Delete", "Backspace"];
const DEFAULT_VIEWPORT = { x: 80, y: 60, zoom: 0.8 };

/** The React Flow surface: document in, named store actions out. */
export function Canvas() {
  const store = useDocumentStore();
  const { nodes, edges, simple } = useFlowSync(store);
  useNoSelectionListener();
  const empty = useDocument((state) => state.nodes.length === 0);
  const applyNodeChanges = useDocument((state) => state.onNodesChange);
  const onEdgesChange = useDocument((state) => state.onEdgesChange);
  const showMinimap = usePreferences((state) => state.showMinimap);
  const snapToGrid = usePreferences((state) => state.snapToGrid);
  // React Flow's colour modes are the preference's: "system" follows the system itself.
  const theme = usePreferences((state) => state.theme);
  const flow = useReactFlow();
  const [search, setSearch] = useState<SearchState | null>(null);
  const [help, setHelp] = useState(false);
  const persistence = usePersistenceIfAny();

  const onConnect = useCallback(
    (connection: Connection) => {
      const verdict = store.getState().connect(connection);
      if (!verdict.ok && verdict.message) notify.error(verdict.message);
    },
    [store],
  );

  // A wire dropped on a handle that refused it says why; dropped on empty canvas, it
  // opens the node search with only the types that can take it.
  // Port hints (nodes/port-hints.ts): marked on the drawn nodes when a wire drag starts.
  const hints = useRef<typeof import("../nodes/port-hints.ts") | null>(null);
  const onConnectStart = useCallback(
    (_event: unknown, start: OnConnectStartParams) => {
      const root = document.querySelector<HTMLElement>(".react-flow");
      if (!root || !start.nodeId || !start.handleType) return;
      const wire = { node: start.nodeId, handle: start.handleId, side: start.handleType };
      void import("../nodes/port-hints.ts").then((module) => {
        hints.current = module;
        module.showPortHints(root, store.getState(), wire);
      });
    },
    [store],
  );
  const onConnectEnd = useCallback(
    (event: globalThis.MouseEvent | TouchEvent, state: FinalConnectionState) => {
      const root = document.querySelector<HTMLElement>(".react-flow");
      if (root) hints.current?.clearPortHints(root);
      if (state.isValid || !state.fromNode || !state.fromHandle) return;
      if (state.toHandle && state.toNode) {
        const fromSource = state.fromHandle.type === "source";
        const connection = fromSource
          ? {
              source: state.fromNode.id,
              sourceHandle: state.fromHandle.id ?? null,
              target: state.toNode.id,
              targetHandle: state.toHandle.id ?? null,
            }
          : {
              source: state.toNode.id,
              sourceHandle: state.toHandle.id ?? null,
              target: state.fromNode.id,
              targetHandle: state.fromHandle.id ?? null,
            };
        onConnect(connection);
        return;
      }
      const point = "changedTouches" in event ? event.changedTouches[0] : event;
      if (!point) return;
      const wire: PendingWire = {
        nodeId: state.fromNode.id,
        nodeType: state.fromNode.type ?? "",
        handleId: state.fromHandle.id ?? null,
        side: state.fromHandle.type,
      };
      void loadPlacement().catch(() => undefined); // ready by the pick
      const screen = { x: point.clientX, y: point.clientY };
      const at = flow.screenToFlowPosition(screen);
      // Which nodes could take the wire: worked out by a module loaded with the first drop.
      void import("../palette/compatible.ts").then(
        ({ compatibleTypes }) =>
          setSearch({ screen, flow: at, wire, choices: compatibleTypes(wire) }),
        () => notify.error(PART_FAILED),
      );
    },
    [flow, onConnect],
  );

  const onPaneDoubleClick = useCallback(
    (event: MouseEvent) => {
      if (!(event.target as HTMLElement).classList.contains("react-flow__pane")) return;
      void loadPlacement().catch(() => undefined); // ready by the pick
      setSearch({
        screen: { x: event.clientX, y: event.clientY },
        flow: flow.screenToFlowPosition({ x: event.clientX, y: event.clientY }),
      });
    },
    [flow],
  );

  const pick = useCallback(
    (definition: NodeDefinition) => {
      if (!search) return;
      const wire = search.wire;
      const portId = search.choices?.find(
        (choice) => choice.definition.type === definition.type,
      )?.portId;
      setSearch(null);
      // At the double-click or the wire's end, or the nearest spot free of other nodes.
      void addNodeNear(store, definition.type, search.flow).then((node) => {
        if (!wire || !portId) return;
        const connection =
          wire.side === "source"
            ? {
                source: wire.nodeId,
                sourceHandle: wire.handleId,
                target: node.id,
                targetHandle: portId,
              }
            : {
                source: node.id,
                sourceHandle: portId,
                target: wire.nodeId,
                targetHandle: wire.handleId,
              };
        onConnect(connection);
      });
    },
    [search, store, onConnect],
  );

  // A palette entry or files from the desktop can be dropped; anything else is left alone.
  const onDragOver = useCallback((event: DragEvent) => {
    const types = event.dataTransfer.types;
    if (types.includes(NODE_DRAG_TYPE) || types.includes("Files")) {
      event.preventDefault();
      event.dataTransfer.dropEffect = "copy";
    }
  }, []);

  // Files are uploaded into new nodes at the drop point; dropped on a node, the new node sits
  // beside it and is wired into its first free input of the file's kind.
  const onDrop = useCallback(
    (event: DragEvent) => {
      const position = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
      const type = event.dataTransfer.getData(NODE_DRAG_TYPE);
      if (type) {
        event.preventDefault();
        void addNodeNear(store, type, position);
        return;
      }
      const files = Array.from(event.dataTransfer.files);
      if (files.length === 0) return;
      event.preventDefault();
      const targetId = (event.target as Element | null)
        ?.closest?.(".react-flow__node")
        ?.getAttribute("data-id");
      const target = targetId
        ? store.getState().nodes.find((node) => node.id === targetId)
        : undefined;
      const at = target ? { x: target.position.x - 360, y: target.position.y } : position;
      // The upload pipeline loads with the first drop, not with the editor.
      void import("../uploads/drop-upload.ts").then(async ({ dropUpload, wireIntoNode }) => {
        // On the pane, an Atelier PNG recreates its generator; on a node, it fills an input.
        const dropped = await dropUpload(files, at, {
          documents: store,
          recreateGenerators: !target,
        });
        if (target) wireIntoNode(store, target.id, dropped);
      });
    },
    [flow, store],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const action = shortcutFor(event);
      if (!action) return;
      // Through a view link only looking around is allowed.
      const viewOnly = isViewOnly(useWorkspace.getState());
      if (viewOnly && action !== "fitView" && action !== "help") return;
      event.preventDefault();
      const state = store.getState();
      if (action === "duplicate") state.duplicateSelection();
      if (action === "copy") state.copySelection();
      if (action === "paste") state.paste();
      if (action === "selectAll") state.selectAll();
      if (action === "group" && !state.groupSelection())
        notify.error("Select nodes that are not in a group yet");
      if (action === "ungroup") state.ungroupSelection();
      if (action === "undo") {
        const label = state.undo();
        if (label) notify.info(`Undid: ${label}`);
      }
      if (action === "redo") {
        const label = state.redo();
        if (label) notify.info(`Redid: ${label}`);
      }
      if (action === "fitView") void flow.fitView({ duration: 200 });
      if (action === "help") setHelp(true);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [store, flow]);

  // While a node is dragged a transparent shield over the canvas takes the pointer: the
  // browser then hit-tests one element per move instead of thousands of nodes (a class
  // toggled directly: no React render). Any pointer release or lost focus lifts it.
  // The dragged nodes themselves move on the compositor meanwhile (drag-hold.ts).
  const canvasRef = useRef<HTMLDivElement>(null);
  const releaseHeld = useRef<() => void>(() => undefined);
  const unmarkDragging = useCallback(() => {
    canvasRef.current?.classList.remove("node-dragging");
    releaseHeld.current();
  }, []);
  const markDragging = useCallback(
    (_event: unknown, _node: unknown, dragged: readonly { id: string }[]) => {
      const canvas = canvasRef.current;
      if (!canvas) return;
      canvas.classList.add("node-dragging");
      releaseHeld.current();
      releaseHeld.current = holdDraggedNodes(
        canvas,
        dragged.map((node) => node.id),
      );
      for (const ending of ["pointerup", "pointercancel", "blur"])
        window.addEventListener(ending, unmarkDragging, { once: true });
    },
    [unmarkDragging],
  );

  // Zoomed out, a drag's moves stay off the document until it ends (live-drag.ts): the
  // zoomed-out wires, which draw them, hand the live drag over once loaded.
  const flowStore = useStoreApi<CanvasNode, CanvasEdge>();
  const [liveDrag, setLiveDrag] = useState<LiveDrag | null>(null);
  const onNodesChange = useCallback(
    (changes: NodeChange<CanvasNode>[]) => {
      const root = canvasRef.current;
      if (root && liveDrag?.take(changes, flowStore.getState(), root)) return;
      applyNodeChanges(changes);
      liveDrag?.applied(changes);
    },
    [applyNodeChanges, flowStore, liveDrag],
  );

  const viewOnly = useWorkspace(isViewOnly);
  return (
    <div
      ref={canvasRef}
      className={viewOnly ? "canvas canvas-view-only" : "canvas"}
      role="application"
      aria-label="Canvas"
      {...(viewOnly ? {} : { onDragOver, onDrop, onDoubleClick: onPaneDoubleClick })}
    >
      <ZoomedOut.Provider value={simple}>
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          onNodesChange={onNodesChange}
          onEdgesChange={onEdgesChange}
          onConnect={onConnect}
          onConnectStart={onConnectStart}
          onConnectEnd={onConnectEnd}
          onNodeDragStart={markDragging}
          onNodeDragStop={unmarkDragging}
          deleteKeyCode={viewOnly ? null : DELETE_KEYS}
          nodesDraggable={!viewOnly}
          nodesConnectable={!viewOnly}
          multiSelectionKeyCode="Shift"
          selectionKeyCode="Shift"
          zoomOnDoubleClick={false}
          snapToGrid={snapToGrid}
          snapGrid={GRID}
          onlyRenderVisibleElements
          minZoom={0.05}
          maxZoom={2}
          defaultViewport={DEFAULT_VIEWPORT}
          colorMode={theme}
          proOptions={{ hideAttribution: true }}
        >
          <Background variant={BackgroundVariant.Dots} gap={GRID[0]} size={1} />
          {simple ? <ZoomedOutWires onLiveDrag={setLiveDrag} /> : null}
          <ZoomControls />
          {showMinimap ? <OverviewMap /> : null}
        </ReactFlow>
      </ZoomedOut.Provider>
      <div className="drag-shield" aria-hidden="true" />
      {viewOnly ? null : (
        <>
          <SelectionToolbar />
          <KeyboardWiring />
          <NodeMenuWiring />
        </>
      )}
      {empty && !viewOnly && persistence ? <EmptyCanvas persistence={persistence} /> : null}
      {search ? (
        <NodeSearch
          at={search.screen}
          {...(search.choices ? { only: search.choices.map((choice) => choice.definition) } : {})}
          onPick={pick}
          onClose={() => setSearch(null)}
        />
      ) : null}
      {help ? <ShortcutSheetPart onClose={() => setHelp(false)} /> : null}
    </div>
  );
}
