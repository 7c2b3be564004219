import { LIMITS } from "@atelier/core";
import type { CanvasEdge, CanvasNode, CanvasNodeData, DocumentGraph } from "./types.ts";

/** The state of some nodes and edges; `null` means "did not exist". */
export interface Snapshot {
  nodes: Map<string, CanvasNode | null>;
  edges: Map<string, CanvasEdge | null>;
}

export interface HistoryEntry {
  label: string;
  before: Snapshot;
  after: Snapshot;
}

/** Fields that are view state, not document: changing only these is not an edit. */
const VIEW_FIELDS = new Set(["selected", "dragging", "measured", "resizing", "handles"]);

const sameFields = (a: unknown, b: unknown): boolean => {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || !a || !b) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (left[key] !== right[key]) return false;
  return true;
};

/**
 * Same document content. Positions compare by value (a node dragged back to its place is
 * unchanged) and data key by key (an outside write rebuilds the data object, see `rebase`).
 */
function sameContent(a: object, b: object): boolean {
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) {
    if (VIEW_FIELDS.has(key) || left[key] === right[key]) continue;
    if ((key === "position" || key === "data") && sameFields(left[key], right[key])) continue;
    return false;
  }
  return true;
}

/** The usual case: same ids in the same order, compared in place without building maps. */
function diffAligned<T extends { id: string }>(before: readonly T[], after: readonly T[]) {
  if (before.length !== after.length) return null;
  const was = new Map<string, T | null>();
  const now = new Map<string, T | null>();
  for (let index = 0; index < after.length; index++) {
    const previous = before[index] as T;
    const item = after[index] as T;
    if (previous === item) continue;
    if (previous.id !== item.id) return null;
    if (sameContent(previous, item)) continue;
    was.set(item.id, previous);
    now.set(item.id, item);
  }
  return { was, now };
}

function diffById<T extends { id: string }>(before: readonly T[], after: readonly T[]) {
  const aligned = diffAligned(before, after);
  if (aligned) return aligned;
  const old = new Map(before.map((item) => [item.id, item]));
  const next = new Map(after.map((item) => [item.id, item]));
  const was = new Map<string, T | null>();
  const now = new Map<string, T | null>();
  for (const [id, item] of next) {
    const previous = old.get(id);
    if (previous === item) continue;
    if (previous && sameContent(previous, item)) continue;
    was.set(id, previous ?? null);
    now.set(id, item);
  }
  for (const [id, item] of old) {
    if (!next.has(id)) {
      was.set(id, item);
      now.set(id, null);
    }
  }
  return { was, now };
}

export type DiffResult =
  | { entry: HistoryEntry }
  | { entry: null; reason: "no-change" | "too-large" };

/**
 * The change between two graphs as a history entry, found by object identity (edits make
 * new objects only for what they touch). Not recorded: no change, more than 20 nodes
 * changed, or more than 1,000,000 characters (SPEC §4).
 */
export function diffGraphs(label: string, before: DocumentGraph, after: DocumentGraph): DiffResult {
  const nodes = diffById(before.nodes, after.nodes);
  const edges = diffById(before.edges, after.edges);
  if (nodes.now.size === 0 && edges.now.size === 0) return { entry: null, reason: "no-change" };
  if (nodes.now.size > LIMITS.history.maxNodesPerEntry) return { entry: null, reason: "too-large" };
  const entry: HistoryEntry = {
    label,
    before: { nodes: nodes.was, edges: edges.was },
    after: { nodes: nodes.now, edges: edges.now },
  };
  const size = JSON.stringify([[...nodes.was.values()], [...nodes.now.values()]]).length;
  if (size > LIMITS.history.maxCharsPerEntry) return { entry: null, reason: "too-large" };
  return { entry };
}

/**
 * True when `after` edits `before` (not only view state), however many nodes it touches.
 * Runs on every document change (persistence.ts): it stops at the first edit and builds no
 * history entry (React Flow measuring hundreds of freshly drawn nodes is one change each).
 */
export function isEdited(before: DocumentGraph, after: DocumentGraph): boolean {
  return changesContent(before.nodes, after.nodes) || changesContent(before.edges, after.edges);
}

function changesContent<T extends { id: string }>(before: readonly T[], after: readonly T[]) {
  if (before === after) return false;
  if (before.length !== after.length) return true;
  let index = 0;
  for (; index < after.length; index++) {
    const previous = before[index] as T;
    const item = after[index] as T;
    if (previous === item) continue;
    if (previous.id !== item.id) break;
    if (!sameContent(previous, item)) return true;
  }
  if (index === after.length) return false;
  // Reordered: as many items, each found by id with the same content, is the same content.
  const old = new Map(before.map((item) => [item.id, item]));
  return after.some((item) => {
    const previous = old.get(item.id);
    return !previous || (previous !== item && !sameContent(previous, item));
  });
}

/** Parents before children, as React Flow requires; otherwise the order is kept. */
export function parentsFirst(nodes: CanvasNode[]): CanvasNode[] {
  const ids = new Set(nodes.map((node) => node.id));
  const placed = new Set<string>();
  const result: CanvasNode[] = [];
  let pending = nodes;
  while (pending.length > 0) {
    const waiting: CanvasNode[] = [];
    for (const node of pending) {
      if (!node.parentId || !ids.has(node.parentId) || placed.has(node.parentId)) {
        result.push(node);
        placed.add(node.id);
      } else waiting.push(node);
    }
    if (waiting.length === pending.length) return [...result, ...waiting];
    pending = waiting;
  }
  return result;
}

/** Puts a snapshot's nodes and edges in place (undo applies `before`, redo `after`). */
export function applySnapshot(graph: DocumentGraph, snapshot: Snapshot): DocumentGraph {
  const apply = <T extends { id: string }>(
    items: readonly T[],
    changes: Map<string, T | null>,
  ): T[] => {
    const result: T[] = [];
    const seen = new Set<string>();
    for (const item of items) {
      seen.add(item.id);
      if (!changes.has(item.id)) result.push(item);
      else {
        const replacement = changes.get(item.id);
        if (replacement) result.push(replacement);
      }
    }
    for (const [id, item] of changes) if (item && !seen.has(id)) result.push(item);
    return result;
  };
  return {
    nodes: parentsFirst(apply(graph.nodes, snapshot.nodes)),
    edges: apply(graph.edges, snapshot.edges),
  };
}

/** Every item of `snapshot` is as the snapshot has it (`null`: absent), ignoring view state. */
function holdsItems<T extends { id: string }>(
  items: readonly T[],
  expected: ReadonlyMap<string, T | null>,
): boolean {
  if (expected.size === 0) return true;
  const current = new Map<string, T>();
  for (const item of items) if (expected.has(item.id)) current.set(item.id, item);
  for (const [id, item] of expected) {
    const now = current.get(id);
    if (item === null ? now !== undefined : !now || !sameContent(now, item)) return false;
  }
  return true;
}

/**
 * True when the graph is still as the snapshot left it: only then is applying the other side
 * of its entry an exact undo (or redo). Anything else means an edit bypassed history.
 */
export function holds(graph: DocumentGraph, snapshot: Snapshot): boolean {
  return holdsItems(graph.nodes, snapshot.nodes) && holdsItems(graph.edges, snapshot.edges);
}

/** What an outside write (a run, an upload) changed in one node's data. */
export interface OutsideWrite {
  keys: string[];
  data: CanvasNodeData;
}

export function outsideWrite(before: CanvasNodeData, after: CanvasNodeData): OutsideWrite {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return { keys: [...keys].filter((key) => before[key] !== after[key]), data: after };
}

/** The node with an outside write's keys laid over its data. */
export function withWrite(node: CanvasNode, write: OutsideWrite): CanvasNode {
  const data = { ...node.data };
  for (const key of write.keys) {
    if (key in write.data) data[key] = write.data[key];
    else delete data[key];
  }
  return { ...node, data };
}

const unchanged = <T extends object>(was: Map<string, T | null>, now: Map<string, T | null>) =>
  [...now].every(([id, item]) => {
    const previous = was.get(id) ?? null;
    return item && previous ? sameContent(previous, item) : item === previous;
  });

/**
 * The entries as if the outside writes had come before them, so that undo and redo keep a
 * run's result and revert only the user's edits. An entry left changing nothing is dropped
 * (undo must not report an edit it cannot show).
 */
export function rebase(
  entries: HistoryEntry[],
  writes: ReadonlyMap<string, OutsideWrite>,
): HistoryEntry[] {
  const onSnapshot = (snapshot: Snapshot): Snapshot => {
    const nodes = new Map(snapshot.nodes);
    for (const [id, write] of writes) {
      const node = nodes.get(id);
      if (node) nodes.set(id, withWrite(node, write));
    }
    return { nodes, edges: snapshot.edges };
  };
  const ids = [...writes.keys()];
  if (!entries.some((entry) => ids.some((id) => entry.after.nodes.has(id)))) return entries;
  return entries.flatMap((entry) => {
    if (!ids.some((id) => entry.after.nodes.has(id))) return [entry];
    const before = onSnapshot(entry.before);
    const after = onSnapshot(entry.after);
    const noop = unchanged(before.nodes, after.nodes) && unchanged(before.edges, after.edges);
    return noop ? [] : [{ label: entry.label, before, after }];
  });
}

/** Appends an entry, keeping the newest 50. */
export function pushEntry(past: readonly HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
  const next = [...past, entry];
  return next.length > LIMITS.history.undoEntries
    ? next.slice(next.length - LIMITS.history.undoEntries)
    : next;
}
