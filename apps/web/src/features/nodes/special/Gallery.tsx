import { gatherInputs, mediaUrlOf } from "@atelier/core";
import { memo } from "react";
import { useDocument } from "../../document/context.tsx";
import { BlockedNote } from "../viewers/BlockedNote.tsx";
import { fileNameOf } from "../viewers/media-meta.ts";
import { mediaHref, mediaSrc } from "../viewers/safe-url.ts";

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
  const kind = KIND_OF_TYPE[type] ?? "image";
  // Items come from workflow data: only what the allow-list passes reaches the page. A 3D
  // item is only ever a link, so it is checked as one.
  const checked = (ran.length > 0 ? ran : incoming).map((url) =>
    kind === "model" ? mediaHref(url, kind) : mediaSrc(url, kind),
  );
  const blocked = checked.filter((url) => url === null).length;
  // One tile per file: the same file wired twice shows once.
  const urls = [...new Set(checked.filter((url): url is string => url !== null))];
  if (urls.length === 0)
    return blocked > 0 ? (
      <BlockedNote count={blocked} />
    ) : (
      <span className="muted">Connect media to collect it here</span>
    );
  // Saving asks again, as a link would: SVG data may be shown, never opened or saved.
  const downloads = urls.flatMap((url) => mediaHref(url, kind) ?? []);
  const downloadAll = () => {
    for (const url of downloads) {
      const link = document.createElement("a");
      link.href = url;
      link.download = fileNameOf(url, kind);
      // Another site's file ignores `download`: it opens in a tab instead of replacing the canvas.
      link.target = "_blank";
      link.rel = "noopener noreferrer";
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
              <a href={url} download={fileNameOf(url, kind)}>
                3D model {index + 1}
              </a>
            ) : null}
          </li>
        ))}
      </ul>
      <BlockedNote count={blocked} />
      {downloads.length > 0 ? (
        <button type="button" className="link" onClick={downloadAll}>
          Download all ({downloads.length})
        </button>
      ) : null}
    </div>
  );
});
