import {
  APP_LIMITS,
  type AppField,
  type AppOutput,
  type AppSettings,
  getNodeDefinition,
  listOutputMedia,
  MEDIA_OUTPUT_KIND,
  type ParamSpec,
} from "@atelier/core";
import type { CanvasEdge, CanvasNode } from "../document/types.ts";

/**
 * What a workflow offers an app: the settings of its nodes, the files its upload nodes hold
 * and the results its nodes make, grouped by node, and the publish request the owner's
 * picks become. Pure, so the publish panel's selector and the tests share it.
 */

export interface ParamCandidate {
  /** The form field's id: `{nodeId}/{param}`. */
  id: string;
  param: string;
  kind: ParamSpec["kind"];
  /** The label the app shows unless the owner writes another. */
  label: string;
  /** A wire feeds the node's port of the same name: the setting is not what the run uses. */
  wired: boolean;
}

export interface NodeCandidate {
  nodeId: string;
  name: string;
  params: ParamCandidate[];
  /** An upload node's file, which the app's visitor replaces: `{nodeId}/file`. */
  media: { id: string; label: string } | null;
  /** The node makes a result the app can show. */
  output: { label: string } | null;
}

/** Prompts, seeds and choices come first: what an app's visitor usually changes. */
const KIND_ORDER: Record<ParamSpec["kind"], number> = {
  text: 0,
  seed: 1,
  choice: 2,
  number: 3,
  flag: 4,
};

const KIND_NAME = {
  image: "Image",
  still: "Image",
  video: "Video",
  audio: "Audio",
  object: "3D model",
};

const nameOf = (node: CanvasNode, displayName: string) =>
  typeof node.data.label === "string" && node.data.label.trim()
    ? node.data.label.trim()
    : displayName;

/** The key of the file an upload node holds (as core's form reads it), or null. */
function heldMedia(node: CanvasNode, edges: readonly CanvasEdge[]) {
  if (node.type !== "utility") return null;
  if (edges.some((edge) => edge.target === node.id)) return null;
  return listOutputMedia(node.data.outputs)[0]?.key ?? null;
}

/** Every node the app can use, upload nodes first, then text nodes, then the rest. */
export function publishCandidates(
  nodes: readonly CanvasNode[],
  edges: readonly CanvasEdge[],
): NodeCandidate[] {
  const found: { rank: number; candidate: NodeCandidate }[] = [];
  for (const node of nodes) {
    const definition = node.type ? getNodeDefinition(node.type) : undefined;
    if (!definition) continue;
    const name = nameOf(node, definition.displayName);
    const custom = name !== definition.displayName;
    const key = heldMedia(node, edges);
    const media = key
      ? { id: `${node.id}/file`, label: custom ? name : KIND_NAME[MEDIA_OUTPUT_KIND[key]] }
      : null;
    const wiredPorts = new Set(
      edges.filter((edge) => edge.target === node.id).map((edge) => edge.targetHandle),
    );
    // An upload node's own settings (how it passes its file on) mean nothing to a visitor.
    const params = media
      ? []
      : Object.entries(definition.params.shape)
          .map(([param, spec]) => ({
            id: `${node.id}/${param}`,
            param,
            kind: spec.kind,
            label: node.type === "text" ? name : (spec.description ?? param),
            wired: wiredPorts.has(param),
          }))
          .sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
    const output =
      definition.outputs.length > 0 && definition.run.kind !== "none" && !media
        ? { label: name }
        : null;
    if (!media && params.length === 0 && !output) continue;
    const rank = media ? 0 : node.type === "text" ? 1 : 2;
    found.push({ rank, candidate: { nodeId: node.id, name, params, media, output } });
  }
  return found.sort((a, b) => a.rank - b.rank).map((entry) => entry.candidate);
}

/** The owner's picks: field or output id → the label it shows. */
export interface Picks {
  fields: Record<string, string>;
  outputs: Record<string, string>;
}

/** Nodes whose result nothing else in the workflow takes: the results worth showing. */
function finalOutputs(candidates: readonly NodeCandidate[], edges: readonly CanvasEdge[]) {
  const feeding = new Set(edges.map((edge) => edge.source));
  return candidates.filter((candidate) => candidate.output && !feeding.has(candidate.nodeId));
}

/**
 * The picks a panel opens with: the published ones, or, for a first publish, every upload,
 * every unwired text or prompt, and the final results.
 */
export function initialPicks(
  candidates: readonly NodeCandidate[],
  edges: readonly CanvasEdge[],
  settings: AppSettings | null,
): Picks {
  if (settings) {
    const fields: Record<string, string> = {};
    for (const field of settings.fields) {
      const id = field.kind === "param" ? `${field.nodeId}/${field.param}` : `${field.nodeId}/file`;
      fields[id] = field.label ?? "";
    }
    const outputs: Record<string, string> = {};
    for (const output of settings.outputs) outputs[output.nodeId] = output.label ?? "";
    return { fields, outputs };
  }
  const fields: Record<string, string> = {};
  for (const candidate of candidates) {
    if (candidate.media) fields[candidate.media.id] = candidate.media.label;
    for (const param of candidate.params)
      if (
        param.kind === "text" &&
        !param.wired &&
        (param.param === "text" || param.param === "prompt")
      )
        fields[param.id] = param.label;
  }
  const outputs: Record<string, string> = {};
  for (const candidate of finalOutputs(candidates, edges))
    outputs[candidate.nodeId] = candidate.output?.label ?? candidate.name;
  return { fields, outputs };
}

/**
 * The publish request's fields and outputs, in the order the panel lists them; a label left
 * empty is the one the panel suggested.
 */
export function pickedRequest(
  candidates: readonly NodeCandidate[],
  picks: Picks,
): { fields: AppField[]; outputs: AppOutput[] } {
  const fields: AppField[] = [];
  const outputs: AppOutput[] = [];
  const label = (text: string | undefined, suggested: string) => {
    const chosen = (text?.trim() || suggested.trim()).slice(0, APP_LIMITS.labelLength);
    return chosen ? { label: chosen } : {};
  };
  for (const candidate of candidates) {
    const { nodeId } = candidate;
    if (candidate.media && candidate.media.id in picks.fields)
      fields.push({
        kind: "media",
        nodeId,
        ...label(picks.fields[candidate.media.id], candidate.media.label),
      });
    for (const param of candidate.params)
      if (param.id in picks.fields)
        fields.push({
          kind: "param",
          nodeId,
          param: param.param,
          ...label(picks.fields[param.id], param.label),
        });
    if (candidate.output && nodeId in picks.outputs)
      outputs.push({ nodeId, ...label(picks.outputs[nodeId], candidate.output.label) });
  }
  return { fields, outputs };
}
