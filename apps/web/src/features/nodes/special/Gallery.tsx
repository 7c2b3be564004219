import { mediaUrlOf } from "@atelier/core";
import { memo } from "react";
import { useDocument } from "../../document/context.tsx";
import type { CanvasNode } from "../../document/types.ts";

const KIND_OF_TYPE: Record<string, "image" | "video" | "audio" | "model"> = {
  container: "image",
  "video-container": "video",
  "audio-container": "audio",
  "3d-container": "model",
};

/** The first media URL a wired source offers (its output values, then its outputs). */
function urlOf(source: CanvasNode, handle: string | null | undefined): string | null {
  const candidates = [
    handle ? source.data.outputValues?.[handle]?.value : undefined,
    ...Object.values(source.data.outputValues ?? {}).map((entry) => entry?.value),
    ...Object.values(source.data.outputs ?? {}),
  ];
  for (const candidate of candidates) {
    const url = mediaUrlOf(Array.isArray(candidate) ? candidate[0] : candidate);
    if (url && /^(https?:|\/api\/media\/)/.test(url)) return url;
  }
  return null;
}

/** The media wired into a container, in wiring order (joined to one string so it compares cheaply). */
function useIncomingMedia(id: string): string[] {
  const joined = useDocument((state) =>
    state.edges
      .filter((edge) => edge.target === id)
      .map((edge) => {
        const source = state.nodes.find((node) => node.id === edge.source);
        return source ? urlOf(source, edge.sourceHandle) : null;
      })
      .filter((url): url is string => Boolean(url))
      .join("\n"),
  );
  return joined ? joined.split("\n") : [];
}

/**
 * A container's gallery: what is wired into it (or, after a run, the list it passes on),
 * as a grid of playable items, with "Download all".
 */
export const Gallery = memo(function Gallery({
  id,
  type,
  items,
}: {
  id: string;
  type: string;
  items: unknown;
}) {
  const incoming = useIncomingMedia(id);
  const ran = Array.isArray(items)
    ? items.map(mediaUrlOf).filter((url): url is string => !!url)
    : [];
  // One tile per file: the same file wired twice shows once.
  const urls = [...new Set(ran.length > 0 ? ran : incoming)];
  const kind = KIND_OF_TYPE[type] ?? "image";
  if (urls.length === 0) return <span className="muted">Connect media to collect it here</span>;
  const downloadAll = () => {
    for (const url of urls) {
      const link = document.createElement("a");
      link.href = url;
      link.download = url.split("/").pop() ?? "media";
      link.click();
    }
  };
  return (
    <div className="gallery nodrag nowheel">
      <ul className={`gallery-grid kind-${kind}`} aria-label="Gallery">
        {urls.map((url, index) => (
          <li key={url}>
            {kind === "image" ? <img src={url} alt={`Item ${index + 1}`} loading="lazy" /> : null}
            {kind === "video" ? (
              <video src={url} controls preload="metadata">
                <track kind="captions" />
              </video>
            ) : null}
            {kind === "audio" ? (
              <audio src={url} controls preload="metadata">
                <track kind="captions" />
              </audio>
            ) : null}
            {kind === "model" ? (
              <a href={url} download>
                3D model {index + 1}
              </a>
            ) : null}
          </li>
        ))}
      </ul>
      <button type="button" className="link" onClick={downloadAll}>
        Download all ({urls.length})
      </button>
    </div>
  );
});
