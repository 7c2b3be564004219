import {
  getNodeDefinition,
  listOutputMedia,
  MEDIA_OUTPUT_KIND,
  nodeFromProvenance,
  type Provenance,
  parseProvenance,
  provenanceSidecarUrl,
  readEmbeddedProvenance,
} from "@atelier/core";
import { lazy, Suspense, useEffect, useState } from "react";
import { createPortal } from "react-dom";

/**
 * "Offline preview" on a result the built-in `local` provider stood in for (no key for the
 * node's provider, or a signed-out session): its media is a placeholder in the size and length
 * asked for, not the model's work. How it was made is read from the file's provenance (its
 * endpoint `local/…`, provider `local`), so saved, shared and history results say so too.
 * Loaded with the media preview, never with the editor.
 */

// Where runs go and what is configured: loaded when asked for.
const ProvidersDialog = lazy(() =>
  import("../../costs/ProvidersDialog.tsx").then((module) => ({
    default: module.ProvidersDialog,
  })),
);

/** Node types the local provider runs for real (merges on the server's ffmpeg). */
const MADE_FOR_REAL = new Set(["merge-videos", "merge-audio-video"]);

const HINT =
  "Made offline by the built-in local provider: placeholder media in the size and length you chose. " +
  "With the provider's key on the server (FAL_KEY and the like), this node runs the real model.";

/** Whether a result's provenance says the local provider stood in for a model. */
export function isOfflinePreview(provenance: Provenance | null): boolean {
  if (!provenance) return false;
  const local = provenance.provider === "local" || !!provenance.endpoint?.startsWith("local/");
  // The node type that made it, as a dropped file recreates it (null: unknown or inert).
  const type = nodeFromProvenance(provenance)?.type;
  // Crop, resize and levels are the server's own work (run kind "local"): nothing stood in.
  return (
    local && !!type && getNodeDefinition(type)?.run.kind === "provider" && !MADE_FOR_REAL.has(type)
  );
}

// The result's provenance is read as "How it was made" reads it (runs/provenance-actions.ts),
// from core's readers: importing that module here would split it out of ProvenancePanel's
// chunk and add an entry to what the editor's first load lists for it.

/** The result a node shows first, if it is a file of this server (only those are read). */
export function storedResult(
  outputs: Record<string, unknown> | undefined,
): { url: string; image: boolean } | null {
  const [first] = listOutputMedia(outputs);
  if (!first) return null;
  try {
    const parsed = new URL(first.url, globalThis.location.href);
    const ours =
      parsed.origin === globalThis.location.origin &&
      parsed.pathname.startsWith("/api/media/file/");
    return ours ? { url: parsed.href, image: MEDIA_OUTPUT_KIND[first.key] === "image" } : null;
  } catch {
    return null;
  }
}

/** A PNG/WebP/JPEG carries its provenance inside; other files (and GIFs) in a sidecar. */
async function readProvenance(source: { url: string; image: boolean }): Promise<Provenance | null> {
  // A server error says nothing about the file: thrown, so the answer is not kept.
  const answered = (response: Response) => {
    if (response.status >= 500) throw new Error(`HTTP ${response.status}`);
    return response.ok;
  };
  if (source.image) {
    const response = await fetch(source.url, { credentials: "omit" });
    if (!answered(response)) return null;
    const embedded = readEmbeddedProvenance(new Uint8Array(await response.arrayBuffer()));
    if (embedded) return embedded;
  }
  const response = await fetch(provenanceSidecarUrl(source.url), { credentials: "omit" });
  return answered(response) ? parseProvenance(await response.text()) : null;
}

/** Answers by file address: a result is looked up once however often its node redraws. */
const answers = new Map<string, Promise<boolean>>();
const MAX_ANSWERS = 500;

function offlineAnswer(source: { url: string; image: boolean }): Promise<boolean> {
  const known = answers.get(source.url);
  if (known) return known;
  const answer = readProvenance(source).then(isOfflinePreview, () => {
    answers.delete(source.url); // a failed read may be tried again later
    return false;
  });
  if (answers.size >= MAX_ANSWERS) answers.delete(answers.keys().next().value as string);
  answers.set(source.url, answer);
  return answer;
}

/** The badge over a node's result, or nothing for results a model made. */
export function OfflineBadge({ outputs }: { outputs: Record<string, unknown> | undefined }) {
  const source = storedResult(outputs);
  const url = source?.url ?? null;
  const image = source?.image ?? false;
  const [offlineUrl, setOfflineUrl] = useState<string | null>(null);
  const [providers, setProviders] = useState(false);

  useEffect(() => {
    if (!url) return;
    let current = true;
    offlineAnswer({ url, image }).then((offline) => {
      if (current) setOfflineUrl(offline ? url : null);
    });
    return () => {
      current = false;
    };
  }, [url, image]);

  if (!url || offlineUrl !== url) return null;
  return (
    <div className="offline-badge nodrag" role="note" title={HINT}>
      <span className="offline-badge-label">Offline preview</span>
      <button type="button" className="link nodrag" onClick={() => setProviders(true)}>
        Add a provider key
      </button>
      {providers
        ? createPortal(
            // `nokey`: keys pressed in the dialog are not the canvas's (Backspace deletes there).
            <div className="nokey">
              <Suspense fallback={null}>
                <ProvidersDialog onClose={() => setProviders(false)} />
              </Suspense>
            </div>,
            document.body,
          )
        : null}
    </div>
  );
}
