import { mediaUrlOf } from "@atelier/core";
import { memo } from "react";
import { useDocument } from "../../document/context.tsx";
import { gatherInputs } from "../../runs/gather-inputs.ts";

const KIND_OF_TYPE: Record<string, "image" | "video" | "audio" | "model"> = {
  container: "image",
  "video-container": "video",
  "audio-container": "audio",
  "3d-container": "model",
};

/** The media wired into a container, in wiring order (joined so the selector compares cheaply). */
function useIncomingMedia(id: string): string[] {
  const joined = useDocument((state) => {
    const media = gatherInputs(state.nodes, state.edges, id).inputs.media;
    return (Array.isArray(media) ? media : media ? [media] : []).join("\n");
  });
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
