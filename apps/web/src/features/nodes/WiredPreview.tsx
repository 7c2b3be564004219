import { getNodeDefinition, type PortType, sourceValues } from "@atelier/core";
import type { ReactFlowState } from "@xyflow/react";
import { type StoreApi, useStore } from "zustand";
import type { CanvasNode } from "../document/types.ts";

/** Text preview length: enough to recognise a prompt, small to compare. */
const PREVIEW = 280;

/**
 * What a wire brings into a field, and from which node: the source's name and the first
 * value it sends now (a prompt's text, a media URL). Follows the source as it changes.
 */
export function WiredPreview({
  label,
  source,
  handle,
  type,
  flow,
}: {
  /** React Flow's store (passed in: importing React Flow here would split its chunk). */
  flow: StoreApi<ReactFlowState>;
  label: string;
  source: string;
  handle: string;
  type: PortType;
}) {
  // React Flow's node lookup holds the document's own node objects: one map read per change.
  const json = useStore(flow, (state) => {
    const node = state.nodeLookup.get(source)?.internals.userNode as CanvasNode | undefined;
    if (!node) return "";
    const from =
      node.data.label ?? getNodeDefinition(node.type ?? "")?.displayName ?? "another node";
    const value = sourceValues(node, handle || null, type)[0] ?? "";
    return JSON.stringify([from, value.slice(0, PREVIEW)]);
  });
  const [from, value] = json ? (JSON.parse(json) as [string, string]) : ["another node", ""];
  return (
    <fieldset className="param param-wired" aria-label={`${label} (wired)`}>
      <legend className="param-label">{label}</legend>
      <span className="wired-from">from {from}</span>
      {value ? (
        <p className="wired-value">{value}</p>
      ) : (
        <p className="wired-value muted">Nothing yet: {from} has no value to send</p>
      )}
    </fieldset>
  );
}
