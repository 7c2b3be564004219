import { mediaOutputKeys } from "../catalogue/media-outputs.ts";
import { getNodeDefinition, SCENE_VIDEO_DEFAULT_PROMPT } from "../catalogue/registry.ts";
import type { PortType } from "../ports/index.ts";
import { mediaUrlOf } from "../serialization/media.ts";
import {
  type CharacterReference,
  REFERENCE_TYPES,
  referenceOf,
  withCharacters,
} from "./references.ts";
import type { RunNode } from "./run-node.ts";
import type { GraphEdge } from "./types.ts";

/** What a run sends, and the labels of required inputs that have nothing yet. */
export interface GatheredInputs {
  /** By input port id: one value, or a list for a `multiple` port. */
  inputs: Record<string, string | string[]>;
  /** The node's parameters: `data.inputValues[name].value` by name. */
  params: Record<string, unknown>;
  /** Labels of required ports with no value, in the catalogue's order. */
  missing: string[];
}

/** Where each port type's value sits in a source's `outputs` (SPEC §3 media output keys). */
const OUTPUT_KEYS: Partial<Record<PortType, string[]>> = {
  image: mediaOutputKeys("image"),
  video: mediaOutputKeys("video"),
  audio: mediaOutputKeys("audio"),
  object: mediaOutputKeys("object"),
  text: ["text"],
};
OUTPUT_KEYS.any = Object.values(OUTPUT_KEYS).flat();

/** A value as the strings a port sends: lists flattened, `{ url }` read, empties dropped. */
function strings(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === "number" || typeof value === "boolean") return [String(value)];
  const text = mediaUrlOf(value);
  return text?.trim() ? [text] : [];
}

/** What one connection carries into a port. */
export function sourceValues(source: RunNode, handle: string | null, type: PortType): string[] {
  const data = source.data;
  const outputPort = source.type
    ? getNodeDefinition(source.type)?.outputs.find((port) => port.id === handle)
    : undefined;
  if (handle) {
    const slot = strings(data.outputValues?.[handle]?.value);
    if (slot.length > 0) return slot;
    const own = strings(data.outputs?.[handle]);
    if (own.length > 0) return own;
  }
  for (const key of OUTPUT_KEYS[outputPort?.type ?? type] ?? []) {
    const found = strings(data.outputs?.[key]);
    if (found.length > 0) return found;
  }
  if (source.type === "text") return strings(data.inputValues?.text?.value ?? data.text);
  return [];
}

/**
 * A graph's lookups for gathering inputs: nodes by id and the wires into each node. Built
 * once for many gathers (a whole graph's estimate), instead of once per node.
 */
export interface GraphIndex {
  byId: ReadonlyMap<string, RunNode>;
  into: ReadonlyMap<string, readonly GraphEdge[]>;
}

export function indexGraph(nodes: readonly RunNode[], edges: readonly GraphEdge[]): GraphIndex {
  const into = new Map<string, GraphEdge[]>();
  for (const edge of edges) {
    const list = into.get(edge.target);
    if (list) list.push(edge);
    else into.set(edge.target, [edge]);
  }
  return { byId: new Map(nodes.map((node) => [node.id, node])), into };
}

const NO_EDGES: readonly GraphEdge[] = [];

/** A video node with a scene composer wired into it (SPEC §9's default prompt applies). */
function fedByScene(category: string, nodeId: string, index: GraphIndex): boolean {
  return (
    category === "video" &&
    (index.into.get(nodeId) ?? NO_EDGES).some(
      (edge) => index.byId.get(edge.source)?.type === "scene-composer",
    )
  );
}

/**
 * Gathers a run of `nodeId` (pure): its parameters, and for each input port the values of
 * the connected sources — `outputValues[sourceHandle]`, else a media/text value in
 * `outputs` for the port's type, else a text node's own text. A `multiple` port gets a list
 * in connection order; an edge without a target handle feeds the first port. A prompt
 * port counts as filled when the node's own `prompt` parameter is non-empty.
 */
export function gatherInputs(
  nodes: readonly RunNode[],
  edges: readonly GraphEdge[],
  nodeId: string,
  depth = 0,
  index: GraphIndex = indexGraph(nodes, edges),
): GatheredInputs {
  const node = index.byId.get(nodeId);
  const params: Record<string, unknown> = {};
  for (const [name, slot] of Object.entries(node?.data.inputValues ?? {}))
    params[name] = slot?.value;
  const result: GatheredInputs = { inputs: {}, params, missing: [] };
  const definition = node?.type ? getNodeDefinition(node.type) : undefined;
  if (!definition) return result;

  const { byId } = index;
  const firstPort = definition.inputs[0]?.id;
  const characters: CharacterReference[] = [];
  /** A character reference's images (and, through its Reference output, who it is). */
  const referenceValues = (source: RunNode, handle: string | null): string[] | null => {
    const isReference = handle === "reference";
    if (!isReference && !(source.type === "character-reference" && handle === "image")) return null;
    // A reference wired into a reference is read too, a few levels deep at most.
    const wired = depth < 4 ? gatherInputs(nodes, edges, source.id, depth + 1, index).inputs : {};
    const reference = referenceOf(source, wired);
    if (!reference) return null;
    if (!isReference) return reference.images.slice(0, 1);
    characters.push(reference);
    return reference.images;
  };
  const wired = definition.inputs.map((port) =>
    (index.into.get(nodeId) ?? NO_EDGES)
      .filter((edge) => (edge.targetHandle ?? firstPort) === port.id)
      .flatMap((edge) => {
        const source = byId.get(edge.source);
        if (!source) return [];
        const handle = edge.sourceHandle ?? null;
        const fromReference = REFERENCE_TYPES.has(source.type ?? "")
          ? referenceValues(source, handle)
          : null;
        return fromReference ?? sourceValues(source, handle, port.type);
      }),
  );
  for (const [at, port] of definition.inputs.entries()) {
    const values = wired[at] ?? [];
    if (values.length > 0) {
      result.inputs[port.id] = port.multiple ? values : (values[0] as string);
      continue;
    }
    if (port.id !== "prompt") {
      if (port.required) result.missing.push(port.label);
      continue;
    }
    const ownPrompt = typeof params.prompt === "string" && params.prompt.trim() !== "";
    if (!ownPrompt && fedByScene(definition.category, nodeId, index))
      result.inputs.prompt = SCENE_VIDEO_DEFAULT_PROMPT;
    // A character's description can be the whole prompt.
    else if (port.required && !ownPrompt && characters.length === 0)
      result.missing.push(port.label);
  }
  if (characters.length > 0 && definition.inputs.some((port) => port.id === "prompt")) {
    // Who the characters are joins the prompt (wired, else the node's own).
    const wiredPrompt = result.inputs.prompt;
    result.inputs.prompt = withCharacters(
      typeof wiredPrompt === "string" ? wiredPrompt : String(params.prompt ?? ""),
      characters,
    );
  }
  return result;
}

/** JSON with every object's keys sorted: the same value gives the same text, whatever
 * order its keys were written in (PostgreSQL's jsonb, for one, reorders them). */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(
          Object.entries(item as Record<string, unknown>).sort(([a], [b]) =>
            a < b ? -1 : a > b ? 1 : 0,
          ),
        )
      : item,
  );
}

/**
 * What a node's run is made from — its model, gathered inputs and parameters — as one
 * canonical string: a node whose last successful run had the same signature keeps its result.
 */
export function runSignatureOf(
  nodes: readonly RunNode[],
  edges: readonly GraphEdge[],
  nodeId: string,
  index: GraphIndex = indexGraph(nodes, edges),
): string {
  const node = index.byId.get(nodeId);
  const { inputs, params } = gatherInputs(nodes, edges, nodeId, 0, index);
  return canonicalJson([node?.type, inputs, params]);
}

/**
 * Everything `runSignatureOf` reads of the graph for a node, in order: types, data objects
 * (by identity), wires. Two equal lists give the same signature, so a caller that keeps
 * signatures (the editor's cost total, between edits) recomputes only when its list
 * changed. Mirrors `gatherInputs`: the node, each wire into it and its source, and the
 * wires into a reference source, as deep as it reads them.
 */
export function signatureReads(
  nodeId: string,
  index: GraphIndex,
  depth = 0,
  reads: unknown[] = [],
): unknown[] {
  const node = index.byId.get(nodeId);
  const into = index.into.get(nodeId) ?? NO_EDGES;
  // The wire count marks where this node's part ends: a wire into the node and the same
  // wire into a reference source before it would otherwise read the same.
  reads.push(node?.type, node?.data, into.length);
  for (const edge of into) {
    const source = index.byId.get(edge.source);
    reads.push(edge.source, edge.sourceHandle, edge.targetHandle, source?.type, source?.data);
    if (source && depth < 4 && REFERENCE_TYPES.has(source.type ?? ""))
      signatureReads(source.id, index, depth + 1, reads);
  }
  return reads;
}
