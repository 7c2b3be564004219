import {
  listOutputMedia,
  MEDIA_OUTPUT_KIND,
  nodeFromProvenance,
  type Provenance,
  parseProvenance,
  provenanceSidecarUrl,
  readEmbeddedProvenance,
} from "@atelier/core";
import type { DocumentStore } from "../document/store.ts";
import type { Runner } from "./runner.ts";

/**
 * Provenance of a node's result (issue 22 §4): read from the file the server stamped — a
 * PNG's `atelier` chunk or a WebP/JPEG's XMP — or from the sidecar JSON next to a video,
 * audio or 3D file.
 */

/** Only files of this server carry our provenance: nothing else is fetched for it. */
function ownMediaUrl(url: string): string | null {
  try {
    const parsed = new URL(url, globalThis.location.href);
    const ours =
      parsed.origin === globalThis.location.origin &&
      parsed.pathname.startsWith("/api/media/file/");
    return ours ? parsed.href : null;
  } catch {
    return null;
  }
}

/** The result a node shows first, if it is one of our stored files. */
export function provenanceSource(
  outputs: Record<string, unknown> | undefined,
): { url: string; image: boolean } | null {
  const [first] = listOutputMedia(outputs);
  const url = first ? ownMediaUrl(first.url) : null;
  return first && url ? { url, image: MEDIA_OUTPUT_KIND[first.key] === "image" } : null;
}

async function readSidecar(url: string): Promise<Provenance | null> {
  const response = await fetch(provenanceSidecarUrl(url), { credentials: "omit" });
  return response.ok ? parseProvenance(await response.text()) : null;
}

/** The result's provenance, or null when it carries none (an upload, an older file). */
export async function loadProvenance(source: {
  url: string;
  image: boolean;
}): Promise<Provenance | null> {
  if (source.image) {
    const response = await fetch(source.url, { credentials: "omit" });
    if (!response.ok) return null;
    const embedded = readEmbeddedProvenance(new Uint8Array(await response.arrayBuffer()));
    // GIF, or a JPEG whose packet was too large for it: the server kept a sidecar.
    if (embedded) return embedded;
  }
  return readSidecar(source.url);
}

/**
 * "Re-run exactly": the node gets the model's parameters, prompt and seed from the record
 * (one undoable edit), then runs as its Run button would. False when the record is not
 * this node type's.
 */
export function rerunExactly(
  documents: DocumentStore,
  runner: Pick<Runner, "run">,
  nodeId: string,
  provenance: Provenance,
): boolean {
  const node = documents.getState().nodes.find((candidate) => candidate.id === nodeId);
  const made = nodeFromProvenance(provenance);
  if (!node || !made || made.type !== node.type) return false;
  const inputValues = { ...node.data.inputValues };
  for (const [name, value] of Object.entries(made.values)) inputValues[name] = { value };
  documents.getState().updateNodeData(nodeId, { inputValues });
  void runner.run(nodeId);
  return true;
}
