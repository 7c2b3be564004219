import {
  duplicateNodes,
  getNodeDefinition,
  groupNodes,
  LIMITS,
  ungroupNodes,
  validateConnection,
} from "@atelier/core";
import { applyEdgeChanges, applyNodeChanges } from "@xyflow/react";
import { createStore } from "zustand/vanilla";
import type { DocumentActions, DocumentState } from "./actions.ts";
import { createEdge, createNode, moveTo, newId, removeNodes, selectOnly } from "./factory.ts";
import { createGroupPalette } from "./group-palette.ts";
import {
  applySnapshot,
  diffGraphs,
  holds,
  type OutsideWrite,
  outsideWrite,
  parentsFirst,
  pushEntry,
  rebase,
  withWrite,
} from "./history.ts";
import { withSafeStyle } from "./safe-style.ts";
import { withoutHandles, withSizeHint } from "./size-hints.ts";
import type { CanvasEdge, CanvasNode, DocumentGraph } from "./types.ts";

export type { DocumentActions, DocumentState } from "./actions.ts";

export type DocumentStore = ReturnType<typeof createDocumentStore>;

const selected = (graph: DocumentGraph) => graph.nodes.filter((node) => node.selected);

/**
 * The document: nodes, edges and their undo history. Every edit is a named action that
 * makes new objects only for what it touches, so history diffs and React renders stay
 * proportional to the change.
 */
export function createDocumentStore(initial: DocumentGraph = { nodes: [], edges: [] }) {
  let clipboard: { nodes: CanvasNode[]; edges: CanvasEdge[] } | null = null;
  let dragging = false;
  const drawnIds = new Set<string>();
  let pending: {
    label: string;
    before: DocumentGraph;
    key: string;
    timer: ReturnType<typeof setTimeout>;
  } | null = null;
  const palette = createGroupPalette(initial.nodes);

  return createStore<DocumentState & DocumentActions>()((set, get) => {
    const graph = (): DocumentGraph => ({ nodes: get().nodes, edges: get().edges });
    const nextColor = () => palette.next(get().nodes);

    const record = (label: string, before: DocumentGraph, after: DocumentGraph) => {
      const diff = diffGraphs(label, before, after);
      if (diff.entry) set({ past: pushEntry(get().past, diff.entry), future: [] });
      // Not recorded (SPEC §4), yet it changed what older entries would restore: undoing
      // them now would replay stale states, so the history ends here.
      else if (diff.reason === "too-large") set({ past: [], future: [] });
    };

    const settle = () => {
      if (!pending) return;
      clearTimeout(pending.timer);
      const { label, before } = pending;
      pending = null;
      record(label, before, graph());
    };

    /** Starts or extends a grouped entry (drag, typing) that is recorded after 1 s idle. */
    const extendPending = (label: string, key: string) => {
      if (pending && pending.key !== key) settle();
      if (!pending)
        pending = {
          label,
          key,
          before: graph(),
          timer: setTimeout(settle, LIMITS.history.dragIdleMs),
        };
      else {
        clearTimeout(pending.timer);
        pending.timer = setTimeout(settle, LIMITS.history.dragIdleMs);
      }
    };

    /**
     * The graph no longer holds what an entry left (an edit bypassed history): that entry
     * and all behind it are stale, and replaying them would show or revert the wrong thing.
     */
    const forget = () => {
      set({ past: [], future: [] });
      return null;
    };

    /** Applies a named edit and records it as one history entry. */
    const commit = (label: string, edit: (current: DocumentGraph) => DocumentGraph) => {
      settle();
      const before = graph();
      const after = edit(before);
      if (after === before) return;
      set({ nodes: after.nodes, edges: after.edges });
      record(label, before, after);
    };

    return {
      nodes: initial.nodes,
      edges: initial.edges,
      past: [],
      future: [],
      loads: 0,

      onNodesChange(changes) {
        const removals = changes.filter((change) => change.type === "remove");
        if (removals.length > 0) {
          const ids = new Set(removals.map((change) => change.id));
          commit("Delete", (current) => removeNodes(current, ids));
        }
        const rest = changes.filter((change) => change.type !== "remove");
        if (rest.length === 0) return;
        const moves = rest.filter((change) => change.type === "position");
        // NodeResizer sets width/height (`setAttributes`): a document edit, recorded as a drag is.
        const resized = rest.some((change) => change.type === "dimensions" && change.setAttributes);
        if (resized) extendPending("Resize", "resize");
        else if (moves.length > 0) extendPending("Move", "move");
        if (moves.length > 0) dragging = moves.some((change) => change.dragging === true);
        let nodes = applyNodeChanges(rest, get().nodes);
        // Measured: the size hint's handles give way to the measured ones (size-hints.ts).
        const measured = new Set(rest.flatMap((c) => (c.type === "dimensions" ? [c.id] : [])));
        if (measured.size > 0)
          nodes = nodes.map((node) => (measured.has(node.id) ? withoutHandles(node) : node));
        set({ nodes });
      },

      onEdgesChange(changes) {
        const removals = changes.filter((change) => change.type === "remove");
        if (removals.length > 0) {
          const ids = new Set(removals.map((change) => change.id));
          commit("Delete connection", (current) => ({
            nodes: current.nodes,
            edges: current.edges.filter((edge) => !ids.has(edge.id)),
          }));
        }
        const rest = changes.filter((change) => change.type !== "remove");
        if (rest.length > 0) set({ edges: applyEdgeChanges(rest, get().edges) });
      },

      addNode(type, position) {
        const node = createNode(type, position);
        if (type === "group") node.data.color = nextColor();
        commit("Add node", (current) => ({
          nodes: [...selectOnly(current.nodes, new Set()), { ...node, selected: true }],
          edges: current.edges,
        }));
        return node;
      },

      connect(connection) {
        const verdict = validateConnection(
          {
            nodes: get().nodes.map((node) => ({
              id: node.id,
              type: node.type ?? "",
              data: node.data,
            })),
            edges: get().edges,
          },
          connection,
        );
        if (!verdict.ok) return verdict;
        const source = get().nodes.find((node) => node.id === connection.source);
        const definition = source?.type ? getNodeDefinition(source.type) : undefined;
        const port =
          definition?.outputs.find((output) => output.id === connection.sourceHandle) ??
          definition?.outputs[0];
        commit("Connect", (current) => ({
          nodes: current.nodes,
          edges: [...current.edges, createEdge(connection, port?.type ?? "any")],
        }));
        return verdict;
      },

      updateNodeData(id, patch) {
        extendPending("Edit", `edit:${id}`);
        set({
          nodes: get().nodes.map((node) =>
            node.id === id ? { ...node, data: { ...node.data, ...patch } } : node,
          ),
        });
      },

      setParam(id, name, value) {
        const node = get().nodes.find((candidate) => candidate.id === id);
        if (!node) return;
        get().updateNodeData(id, { inputValues: { ...node.data.inputValues, [name]: { value } } });
      },

      deleteSelection() {
        const ids = new Set(selected(graph()).map((node) => node.id));
        const edgeIds = new Set(
          get()
            .edges.filter((edge) => edge.selected)
            .map((edge) => edge.id),
        );
        if (ids.size === 0 && edgeIds.size === 0) return;
        commit("Delete", (current) => {
          const without = removeNodes(current, ids);
          return {
            nodes: without.nodes,
            edges: without.edges.filter((edge) => !edgeIds.has(edge.id)),
          };
        });
      },

      duplicateSelection() {
        const chosen = selected(graph());
        if (chosen.length === 0) return;
        commit("Duplicate", (current) => {
          const copies = duplicateNodes(chosen, current.edges, (id) =>
            newId(id.split("-")[0] ?? "node"),
          );
          return {
            nodes: parentsFirst([...selectOnly(current.nodes, new Set()), ...copies.nodes]),
            edges: [...current.edges, ...copies.edges],
          };
        });
      },

      copySelection() {
        const chosen = selected(graph());
        const ids = new Set(chosen.map((node) => node.id));
        clipboard = {
          nodes: chosen,
          edges: get().edges.filter((edge) => ids.has(edge.source) && ids.has(edge.target)),
        };
        return chosen.length;
      },

      paste() {
        if (!clipboard || clipboard.nodes.length === 0) return 0;
        const source = clipboard;
        commit("Paste", (current) => {
          const copies = duplicateNodes(source.nodes, source.edges, (id) =>
            newId(id.split("-")[0] ?? "node"),
          );
          return {
            nodes: parentsFirst([...selectOnly(current.nodes, new Set()), ...copies.nodes]),
            edges: [...current.edges, ...copies.edges],
          };
        });
        // Pasting again lands another +50/+50 further.
        clipboard = { nodes: selected(graph()), edges: source.edges };
        return source.nodes.length;
      },

      selectAll() {
        set({
          nodes: get().nodes.map((node) => (node.selected ? node : { ...node, selected: true })),
        });
      },

      arrangeSelection(label, arrange) {
        const result = arrange(selected(graph()));
        if (!result.ok) return result.message;
        commit(label, (current) => ({
          nodes: moveTo(current.nodes, result.positions),
          edges: current.edges,
        }));
        return null;
      },

      groupSelection() {
        const chosen = selected(graph());
        const result = groupNodes(chosen, {
          id: newId("group"),
          color: nextColor(),
          title: "Group",
        });
        if (!result) return false;
        commit("Group", (current) => {
          const children = new Map(result.children.map((child) => [child.id, child]));
          const nodes = current.nodes.map((node) => children.get(node.id) ?? node);
          return {
            nodes: parentsFirst([result.group as CanvasNode, ...nodes]),
            edges: current.edges,
          };
        });
        return true;
      },

      ungroupSelection() {
        const groups = selected(graph()).filter((node) => node.type === "group");
        if (groups.length === 0) return false;
        commit("Ungroup", (current) => {
          let nodes = current.nodes;
          for (const group of groups) {
            const freed = new Map(ungroupNodes(group, nodes).map((node) => [node.id, node]));
            nodes = nodes
              .filter((node) => node.id !== group.id)
              .map((node) => freed.get(node.id) ?? node);
          }
          return { nodes, edges: current.edges };
        });
        return true;
      },

      undo() {
        settle();
        const entry = get().past.at(-1);
        if (!entry) return null;
        if (!holds(graph(), entry.after)) return forget();
        const restored = applySnapshot(graph(), entry.before);
        set({ ...restored, past: get().past.slice(0, -1), future: [...get().future, entry] });
        return entry.label;
      },

      redo() {
        settle();
        const entry = get().future.at(-1);
        if (!entry) return null;
        if (!holds(graph(), entry.before)) return forget();
        const restored = applySnapshot(graph(), entry.after);
        set({ ...restored, future: get().future.slice(0, -1), past: pushEntry(get().past, entry) });
        return entry.label;
      },

      load(next) {
        if (pending) clearTimeout(pending.timer);
        pending = null;
        palette.reset(next.nodes);
        set({
          // Loaded documents may be anyone's: no style of theirs loads a thing.
          nodes: parentsFirst(next.nodes.map((node) => withSizeHint(withSafeStyle(node)))),
          edges: next.edges.map(withSafeStyle),
          past: [],
          future: [],
          loads: get().loads + 1,
        });
      },

      applyExternal(data) {
        if (data.size === 0) return;
        const writes = new Map<string, OutsideWrite>();
        const nodes = get().nodes.map((node) => {
          const next = data.get(node.id);
          if (!next || next === node.data) return node;
          writes.set(node.id, outsideWrite(node.data, next));
          return { ...node, data: next };
        });
        if (writes.size === 0) return;
        // Not an edit of the user's: history (and a drag or typing not yet recorded) takes
        // the write as if it had come first, so undo never reverts a run's result.
        if (pending) {
          const before = pending.before;
          pending.before = {
            nodes: before.nodes.map((node) => {
              const write = writes.get(node.id);
              return write ? withWrite(node, write) : node;
            }),
            edges: before.edges,
          };
        }
        set({ nodes, past: rebase(get().past, writes), future: rebase(get().future, writes) });
      },

      drawn(id) {
        drawnIds.add(id);
        if (drawnIds.size > 1) return;
        // A task of its own (not a microtask): opening 3,000 nodes, this pass over them must
        // not join the task that drew them.
        setTimeout(() => {
          const ids = new Set(drawnIds);
          drawnIds.clear();
          const nodes = get().nodes;
          if (!nodes.some((node) => node.handles && ids.has(node.id))) return;
          set({ nodes: nodes.map((node) => (ids.has(node.id) ? withoutHandles(node) : node)) });
        }, 0);
      },

      flushPending() {
        settle();
      },

      isDragging: () => dragging,
    };
  });
}
