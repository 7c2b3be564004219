import { nodeFromProvenance, readEmbeddedProvenance } from "@atelier/core";
import type { DocumentStore } from "../document/store.ts";

/** PNG files are the ones that carry an `atelier` chunk (ComfyUI's habit: the file is the recipe). */
const isPngFile = (file: File) => file.type === "image/png" || /\.png$/i.test(file.name);

/**
 * A dropped Atelier PNG recreates the node that made it, with its model's parameters,
 * prompt and seed (one node, at the drop point, as an undoable "Add node" and "Edit").
 * Answers the new node's id, or null when the file is no Atelier PNG (it is then uploaded
 * as usual).
 */
export async function recreateFromPng(
  file: File,
  position: { x: number; y: number },
  documents: Pick<DocumentStore, "getState">,
): Promise<string | null> {
  if (!isPngFile(file)) return null;
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch {
    return null;
  }
  const provenance = readEmbeddedProvenance(bytes);
  const made = provenance ? nodeFromProvenance(provenance) : null;
  if (!made) return null;
  const node = documents.getState().addNode(made.type, position);
  const inputValues = { ...node.data.inputValues };
  for (const [name, value] of Object.entries(made.values)) inputValues[name] = { value };
  documents.getState().updateNodeData(node.id, { inputValues });
  return node.id;
}
