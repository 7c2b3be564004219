import type { ArrangeResult, ConnectionVerdict } from "@atelier/core";
import type { EdgeChange, NodeChange } from "@xyflow/react";
import type { HistoryEntry } from "./history.ts";
import type { CanvasEdge, CanvasNode, CanvasNodeData, DocumentGraph } from "./types.ts";

/** The document store's state and its named actions (implemented in store.ts). */

export interface DocumentState extends DocumentGraph {
  past: HistoryEntry[];
  future: HistoryEntry[];
  /** Whole graphs loaded so far (opened, imported, restored): a new document, not an edit. */
  loads: number;
}

type Connection = {
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
};

export interface DocumentActions {
  /** React Flow's node changes: moves and resizes (one history entry each, after 1 s idle), selection, sizes, removals. */
  onNodesChange(changes: NodeChange<CanvasNode>[]): void;
  onEdgesChange(changes: EdgeChange<CanvasEdge>[]): void;
  addNode(type: string, position: { x: number; y: number }): CanvasNode;
  /** Checks with core's rules, then wires; returns the verdict for the caller to show. */
  connect(connection: Connection): ConnectionVerdict;
  /** Typing into a node; consecutive edits of one node merge into one history entry. */
  updateNodeData(id: string, patch: Partial<CanvasNodeData>): void;
  setParam(id: string, name: string, value: unknown): void;
  deleteSelection(): void;
  duplicateSelection(): void;
  copySelection(): number;
  paste(): number;
  selectAll(): void;
  /**
   * Moves the selected nodes where `arrange` (core's alignNodes or distributeNodes, which
   * only the lazy selection toolbar loads) puts them, as one undo step named `label`.
   */
  arrangeSelection(label: string, arrange: (nodes: CanvasNode[]) => ArrangeResult): string | null;
  groupSelection(): boolean;
  ungroupSelection(): boolean;
  undo(): string | null;
  redo(): string | null;
  /** Replaces the whole document (load, import, restore); not an undoable edit. */
  load(graph: DocumentGraph): void;
  /** Changes from outside the user's editing (uploads, runs): only the named nodes, not undoable; undo and redo keep them. */
  applyExternal(data: ReadonlyMap<string, CanvasNodeData>): void;
  /** A node was drawn: its size hint's handles give way to measured ones (batched). */
  drawn(id: string): void;
  /** Settles pending drag/typing entries now (tests, save). */
  flushPending(): void;
  /** A node is being dragged now (background work such as journaling waits for the drop). */
  isDragging(): boolean;
}
