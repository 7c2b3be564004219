import type { MediaUrlKind } from "@atelier/core";
import { fileNameOf } from "./media-meta.ts";
import { mediaHref } from "./safe-url.ts";

/** "Download" for a result, only when its address may be opened (never SVG data). */
export function DownloadLink({ url, kind }: { url: string; kind: Exclude<MediaUrlKind, "any"> }) {
  const href = mediaHref(url, kind);
  if (!href) return null;
  return (
    <a href={href} download={fileNameOf(href, kind)} target="_blank" rel="noopener noreferrer">
      Download
    </a>
  );
}
