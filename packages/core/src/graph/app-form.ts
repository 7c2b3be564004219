import type { AppField, AppFormField, AppOutput } from "../api/apps.ts";
import { APP_MESSAGES } from "../api/apps.ts";
import { MEDIA_OUTPUT_KIND, type MediaOutputKind } from "../catalogue/media-outputs.ts";
import { type ParamSpec, problemOf } from "../catalogue/params.ts";
import { getNodeDefinition } from "../catalogue/registry.ts";
import { listOutputMedia } from "../serialization/media.ts";
import type { RunNode } from "./run-node.ts";
import type { GraphEdge } from "./types.ts";

/**
 * A published app's form, from the workflow version it runs (pure: the server checks a
 * publish with it, draws the form from it, and applies a run's values with it).
 */

const ACCEPT: Record<MediaOutputKind, string> = {
  image: "image/*",
  still: "image/*",
  video: "video/*",
  audio: "audio/*",
  object: ".glb,.gltf",
};

export const appFieldId = (field: AppField) =>
  field.kind === "param" ? `${field.nodeId}/${field.param}` : `${field.nodeId}/file`;

const nameOf = (node: RunNode) =>
  typeof node.data.label === "string" && node.data.label.trim() ? node.data.label : node.id;

/** The field's label on the form: its own, else the node's name and the setting's. */
function labelOf(node: RunNode, field: AppField): string {
  if (field.label?.trim()) return field.label.trim();
  if (field.kind === "media") return nameOf(node);
  const spec = node.type ? getNodeDefinition(node.type)?.params.shape[field.param] : undefined;
  return `${nameOf(node)} · ${spec?.description ?? field.param}`;
}

/** The key a node holding an uploaded file keeps it under (its first media), or null. */
function heldMediaKey(node: RunNode, edges: readonly GraphEdge[]) {
  if (edges.some((edge) => edge.target === node.id)) return null;
  return listOutputMedia(node.data.outputs)[0]?.key ?? null;
}

function inputOf(spec: ParamSpec, current: unknown, name: string): AppFormField["input"] {
  switch (spec.kind) {
    case "choice":
      return {
        type: "select",
        options: [...spec.values],
        default: spec.values.includes(current as string) ? (current as string) : spec.default,
      };
    case "number":
      return {
        type: "number",
        min: spec.min,
        max: spec.max,
        integer: spec.integer,
        default: typeof current === "number" ? current : spec.default,
      };
    case "flag":
      return { type: "flag", default: typeof current === "boolean" ? current : spec.default };
    case "text":
      return {
        type: "text",
        multiline: /prompt|text|description/i.test(name),
        default: typeof current === "string" ? current : spec.default,
      };
    case "seed":
      return { type: "seed", default: typeof current === "number" ? current : null };
  }
}

export type AppFormResult =
  | { ok: true; fields: AppFormField[]; outputs: { nodeId: string; label: string }[] }
  | { ok: false; message: string };

/** The form of an app over a graph; a field or output the graph cannot serve is refused. */
export function appFormOf(
  graph: { nodes: readonly RunNode[]; edges: readonly GraphEdge[] },
  fields: readonly AppField[],
  outputs: readonly AppOutput[],
): AppFormResult {
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const form: AppFormField[] = [];
  const seen = new Set<string>();
  for (const field of fields) {
    const node = byId.get(field.nodeId);
    if (!node) return { ok: false, message: APP_MESSAGES.unknownNode(field.nodeId) };
    const id = appFieldId(field);
    if (field.kind === "param") {
      const spec = node.type ? getNodeDefinition(node.type)?.params.shape[field.param] : undefined;
      if (!spec)
        return { ok: false, message: APP_MESSAGES.unknownParam(nameOf(node), field.param) };
      const label = labelOf(node, field);
      if (seen.has(id)) return { ok: false, message: APP_MESSAGES.fieldTwice(label) };
      const current = node.data.inputValues?.[field.param]?.value;
      form.push({ id, label, input: inputOf(spec, current, field.param) });
    } else {
      const key = heldMediaKey(node, graph.edges);
      if (!key) return { ok: false, message: APP_MESSAGES.notMediaHolder(nameOf(node)) };
      const label = labelOf(node, field);
      if (seen.has(id)) return { ok: false, message: APP_MESSAGES.fieldTwice(label) };
      form.push({ id, label, input: { type: "media", accept: ACCEPT[MEDIA_OUTPUT_KIND[key]] } });
    }
    seen.add(id);
  }
  if (outputs.length === 0) return { ok: false, message: APP_MESSAGES.noOutputs };
  const shown: { nodeId: string; label: string }[] = [];
  for (const output of outputs) {
    const node = byId.get(output.nodeId);
    if (!node) return { ok: false, message: APP_MESSAGES.unknownNode(output.nodeId) };
    const definition = node.type ? getNodeDefinition(node.type) : undefined;
    if (!definition || definition.outputs.length === 0 || definition.run.kind === "none")
      return { ok: false, message: APP_MESSAGES.noOutputPort(nameOf(node)) };
    shown.push({ nodeId: node.id, label: output.label?.trim() || nameOf(node) });
  }
  return { ok: true, fields: form, outputs: shown };
}

/**
 * The graph with a run's form values in place: a setting's value checked against its spec, a
 * file replacing the one its upload node held (`isOwnMedia` says a URL is a file uploaded to
 * this server). A field left out keeps the published value, except a file, which is required.
 */
export function applyAppValues<N extends RunNode>(
  graph: { nodes: readonly N[]; edges: readonly GraphEdge[] },
  fields: readonly AppField[],
  values: Record<string, unknown>,
  isOwnMedia: (url: string) => boolean,
): { ok: true; nodes: N[] } | { ok: false; message: string } {
  const nodes = new Map(graph.nodes.map((node) => [node.id, node]));
  for (const field of fields) {
    const id = appFieldId(field);
    const node = nodes.get(field.nodeId);
    if (!node) return { ok: false, message: APP_MESSAGES.unknownNode(field.nodeId) };
    const label = labelOf(node, field);
    const value = values[id];
    if (field.kind === "param") {
      if (value === undefined) continue;
      const spec = node.type ? getNodeDefinition(node.type)?.params.shape[field.param] : undefined;
      if (!spec)
        return { ok: false, message: APP_MESSAGES.unknownParam(nameOf(node), field.param) };
      const problem = problemOf(spec, value);
      if (problem) return { ok: false, message: APP_MESSAGES.badValue(label, problem) };
      const inputValues = { ...node.data.inputValues, [field.param]: { value } };
      nodes.set(node.id, { ...node, data: { ...node.data, inputValues } });
    } else {
      if (value === undefined || value === null || value === "")
        return { ok: false, message: APP_MESSAGES.mediaRequired(label) };
      if (typeof value !== "string" || !isOwnMedia(value))
        return { ok: false, message: APP_MESSAGES.badMedia(label) };
      const key = heldMediaKey(node, graph.edges);
      if (!key) return { ok: false, message: APP_MESSAGES.notMediaHolder(nameOf(node)) };
      const port = node.type ? getNodeDefinition(node.type)?.outputs[0]?.id : undefined;
      const data = {
        ...node.data,
        outputs: { ...node.data.outputs, [key]: value },
        ...(port ? { outputValues: { ...node.data.outputValues, [port]: { value } } } : {}),
      };
      nodes.set(node.id, { ...node, data });
    }
  }
  return { ok: true, nodes: [...nodes.values()] };
}

/** The nodes an app run runs: its shown outputs and everything upstream of them. */
export function appRunNodes(
  edges: readonly GraphEdge[],
  outputs: readonly { nodeId: string }[],
): string[] {
  const wanted = new Set(outputs.map((output) => output.nodeId));
  const pending = [...wanted];
  for (let id = pending.pop(); id !== undefined; id = pending.pop())
    for (const edge of edges)
      if (edge.target === id && !wanted.has(edge.source)) {
        wanted.add(edge.source);
        pending.push(edge.source);
      }
  return [...wanted];
}
