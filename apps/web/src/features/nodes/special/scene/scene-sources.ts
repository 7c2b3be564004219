import { gatherInputs, getNodeDefinition } from "@atelier/core";
import { useMemo } from "react";
import { useDocument } from "../../../document/context.tsx";
import type { CanvasEdge, CanvasNode } from "../../../document/types.ts";
import type { ItemKind, SceneSource } from "./scene-state.ts";

const KIND_OF_PORT: Record<string, ItemKind> = { model: "model", image: "image" };

/**
 * What is wired into scene composer `id`, in wiring order: one item per value each
 * connection carries (read exactly as a run would, through `gatherInputs`). Labels are the
 * source nodes' names, numbered when two would read the same.
 */
export function sceneSources(
  nodes: readonly CanvasNode[],
  edges: readonly CanvasEdge[],
  id: string,
): SceneSource[] {
  const incoming = edges.filter((edge) => edge.target === id);
  if (incoming.length === 0) return [];
  const self = nodes.find((node) => node.id === id);
  if (!self) return [];
  const sources: SceneSource[] = [];
  for (const edge of incoming) {
    const kind = KIND_OF_PORT[edge.targetHandle ?? "model"];
    const source = nodes.find((node) => node.id === edge.source);
    if (!kind || !source) continue;
    // One connection at a time, so each value is known to come from this source.
    const value = gatherInputs([self, source], [edge], id).inputs[kind];
    const urls = Array.isArray(value) ? value : value ? [value] : [];
    const name =
      source.data.label ??
      (source.type ? getNodeDefinition(source.type)?.displayName : undefined) ??
      (kind === "model" ? "3D model" : "Image");
    urls.forEach((url, index) => {
      sources.push({
        key: `${edge.source}/${edge.sourceHandle ?? ""}/${index}`,
        kind,
        url,
        label: urls.length > 1 ? `${name} ${index + 1}` : name,
      });
    });
  }
  const seen = new Map<string, number>();
  return sources.map((source) => {
    const count = (seen.get(source.label) ?? 0) + 1;
    seen.set(source.label, count);
    return count > 1 ? { ...source, label: `${source.label} (${count})` } : source;
  });
}

/**
 * The scene's sources through a narrow selector: the answer is compared as one string, so
 * the node re-renders only when what is wired in changes, not on unrelated edits.
 */
export function useSceneSources(id: string): SceneSource[] {
  const joined = useDocument((state) => JSON.stringify(sceneSources(state.nodes, state.edges, id)));
  return useMemo(() => JSON.parse(joined) as SceneSource[], [joined]);
}
