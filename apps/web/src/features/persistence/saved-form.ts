import {
  type SavedEdge,
  type SavedNode,
  type SavedWorkflow,
  serializeEdge,
  serializeNode,
  serializeWorkflow,
  utf8ByteLength,
  type WorkflowMetadata,
  workflowStats,
} from "@atelier/core";
import { nextTask } from "../../services/next-task.ts";
import type { CanvasEdge, CanvasNode } from "../document/types.ts";
import type { SavedSnapshot } from "./delta-save.ts";

/*
 * The saved form of the document for saves, made incrementally. Edits make new node and wire
 * objects only for what they touch (document/history.ts), so each object's saved form and
 * JSON text are kept by identity: a save after a one-prompt edit serializes one node, and
 * its size, its delta snapshot and the device copy come from texts already made. A save of
 * a 5 MB workflow used to stringify, parse and clone every node several times on the
 * editor's thread (seconds on a slow machine, whatever the edit).
 */

interface NodeForm {
  saved: SavedNode;
  text: string;
  bytes: number;
}

interface EdgeForm {
  sourceType: string | undefined;
  saved: SavedEdge;
  text: string;
  bytes: number;
}

const nodeForms = new WeakMap<CanvasNode, NodeForm>();
const edgeForms = new WeakMap<CanvasEdge, EdgeForm>();

/** New node forms made per task: a first save of thousands of nodes yields between them. */
const NODES_PER_TASK = 250;

/** The document as saved (SPEC §3) and the texts a save reuses. */
export interface SavedForm {
  data: SavedWorkflow;
  /** Each node's JSON text, in order. */
  nodeTexts: string[];
  nodeBytes: number;
  /** `JSON.stringify(data.edges)`. */
  edgesText: string;
  edgesBytes: number;
}

/** The last save's wires and their text: a save that changed no wire reuses it as it is. */
let lastWires: { forms: EdgeForm[]; text: string; bytes: number } | null = null;

function wiresText(forms: EdgeForm[]): { text: string; bytes: number } {
  const last = lastWires;
  if (last && last.forms.length === forms.length && forms.every((f, at) => f === last.forms[at]))
    return last;
  const bytes = forms.reduce((sum, form) => sum + form.bytes, 2 + Math.max(0, forms.length - 1));
  lastWires = { forms, text: `[${forms.map((form) => form.text).join(",")}]`, bytes };
  return lastWires;
}

function nodeForm(node: CanvasNode): NodeForm {
  let form = nodeForms.get(node);
  if (!form) {
    const saved = serializeNode(node);
    const text = JSON.stringify(saved);
    form = { saved, text, bytes: utf8ByteLength(text) };
    nodeForms.set(node, form);
  }
  return form;
}

function edgeForm(edge: CanvasEdge, sourceType: string | undefined): EdgeForm {
  let form = edgeForms.get(edge);
  if (!form || form.sourceType !== sourceType) {
    const saved = serializeEdge(edge, sourceType);
    const text = JSON.stringify(saved);
    form = { sourceType, saved, text, bytes: utf8ByteLength(text) };
    edgeForms.set(edge, form);
  }
  return form;
}

/**
 * Exactly `serializeWorkflow({ nodes, edges, metadata }, { now })`, made from the forms kept
 * for unchanged nodes and wires; new forms are made a few hundred nodes per task.
 */
export async function savedForm(
  nodes: readonly CanvasNode[],
  edges: readonly CanvasEdge[],
  metadata: Partial<WorkflowMetadata>,
  { now = Date.now(), yieldTask = nextTask } = {},
): Promise<SavedForm> {
  const forms: NodeForm[] = [];
  let made = 0;
  for (const node of nodes) {
    if (!nodeForms.has(node) && ++made % NODES_PER_TASK === 0) await yieldTask();
    forms.push(nodeForm(node));
  }
  const typeOf = new Map(nodes.map((node) => [node.id, node.type]));
  const wires = edges.map((edge) => edgeForm(edge, typeOf.get(edge.source)));
  // Core makes the rest (version, timestamp, metadata): only nodes and edges come from here.
  const data = serializeWorkflow({ nodes: [], edges: [], metadata }, { now });
  data.nodes = forms.map((form) => form.saved);
  data.edges = wires.map((wire) => wire.saved);
  data.metadata.stats = workflowStats(data.nodes, data.edges.length);
  const wired = wiresText(wires);
  return {
    data,
    nodeTexts: forms.map((form) => form.text),
    nodeBytes: forms.reduce((sum, form) => sum + form.bytes, 0),
    edgesText: wired.text,
    edgesBytes: wired.bytes,
  };
}

const LISTS = '"nodes":[],"edges":[]';

/** `data` without its lists as JSON, cut where the nodes go. */
function shellPieces(data: SavedWorkflow): { head: string; tail: string } {
  const shell = JSON.stringify({ ...data, nodes: [], edges: [] });
  const at = shell.indexOf(LISTS);
  return { head: `${shell.slice(0, at)}"nodes":[`, tail: shell.slice(at + LISTS.length) };
}

const EDGES_KEY = '],"edges":';

/** `data` (the form's, its metadata possibly changed since) as JSON, in pieces. */
function jsonPieces(data: SavedWorkflow, form: SavedForm): { before: string; after: string } {
  const { head, tail } = shellPieces(data);
  return { before: head, after: `${EDGES_KEY}${form.edgesText}${tail}` };
}

/** UTF-8 size of `JSON.stringify(data)`, where `data` has the form's nodes and edges. */
export function savedBytes(data: SavedWorkflow, form: SavedForm): number {
  const { head, tail } = shellPieces(data);
  const commas = Math.max(0, form.nodeTexts.length - 1);
  return (
    utf8ByteLength(head) +
    form.nodeBytes +
    commas +
    EDGES_KEY.length +
    form.edgesBytes +
    utf8ByteLength(tail)
  );
}

/** The delta snapshot of the form: the same texts, so unchanged nodes compare in O(1). */
export function formSnapshot(data: SavedWorkflow, form: SavedForm): SavedSnapshot {
  return {
    order: data.nodes.map((node) => node.id),
    nodes: new Map(data.nodes.map((node, index) => [node.id, form.nodeTexts[index] as string])),
    edges: form.edgesText,
  };
}

/** Characters of node text per Blob piece, each made in a task of its own. */
const PIECE_CHARS = 1 << 18;

/**
 * `{"workflow":{"id","name","data"}}` — the shape of the open's answer that device copies
 * keep — as a Blob made from the form's texts a piece per task (IndexedDB keeps a Blob by
 * reference, where an object of megabytes is cloned on this thread).
 */
export async function deviceCopyBlob(
  id: string,
  name: string,
  data: SavedWorkflow,
  form: SavedForm,
  yieldTask: () => Promise<void> = nextTask,
): Promise<Blob> {
  const { before, after } = jsonPieces(data, form);
  const pieces: Blob[] = [
    new Blob([`{"workflow":{"id":${JSON.stringify(id)},"name":${JSON.stringify(name)},"data":`]),
    new Blob([before]),
  ];
  let piece: string[] = [];
  let size = 0;
  const flush = async () => {
    if (piece.length === 0) return;
    await yieldTask();
    pieces.push(new Blob([piece.join(",")]));
    piece = [];
    size = 0;
  };
  for (const [index, text] of form.nodeTexts.entries()) {
    if (size > 0 && size + text.length > PIECE_CHARS) {
      await flush();
      pieces.push(new Blob([","]));
    }
    piece.push(text);
    size += text.length;
    if (index === form.nodeTexts.length - 1) await flush();
  }
  pieces.push(new Blob([`${after}}}`]));
  return new Blob(pieces, { type: "application/json" });
}
