import { gatherInputs } from "@atelier/core";
import { useEffect, useState } from "react";
import { useDocument } from "../../../document/context.tsx";
import { BLOCKED_MEDIA, mediaSrc } from "../../viewers/safe-url.ts";

/** The URL of the image wired into the node's `image` input, or null (a stable string). */
export function useSourceUrl(id: string): string | null {
  return useDocument((state) => {
    const image = gatherInputs(state.nodes, state.edges, id).inputs.image;
    return typeof image === "string" ? image : null;
  });
}

export type SourceImage =
  | { status: "none" }
  | { status: "loading" }
  | { status: "ready"; image: HTMLImageElement }
  | { status: "error"; message: string };

// Decoded images by URL, so a node scrolled back into view draws at once.
const loaded = new Map<string, HTMLImageElement>();
const KEEP = 24;

const sameOrigin = (url: string) => {
  if (/^(data|blob):/.test(url)) return true;
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
};

const BLOCKED: SourceImage = { status: "error", message: BLOCKED_MEDIA };

/**
 * Loads the source image for drawing; errors say what the user can do about them. An
 * address the allow-list refuses is never loaded.
 */
export function useSourceImage(source: string | null): SourceImage {
  const url = source ? mediaSrc(source, "image") : null;
  const [state, setState] = useState<{ url: string; result: SourceImage } | null>(null);
  useEffect(() => {
    if (!url || loaded.has(url)) return;
    const image = new Image();
    // Our media is same-origin; another site's image must allow CORS for pixels to be read.
    if (!sameOrigin(url)) image.crossOrigin = "anonymous";
    image.decoding = "async";
    image.onload = () => {
      loaded.set(url, image);
      if (loaded.size > KEEP) loaded.delete(loaded.keys().next().value as string);
      setState({ url, result: { status: "ready", image } });
    };
    image.onerror = () =>
      setState({
        url,
        result: {
          status: "error",
          message: sameOrigin(url)
            ? "The source image could not be loaded for the preview."
            : "The source image's site does not allow previews; run the node to see the result.",
        },
      });
    image.src = url;
    return () => {
      image.onload = null;
      image.onerror = null;
    };
  }, [url]);
  if (!source) return { status: "none" };
  if (!url) return BLOCKED;
  const cached = loaded.get(url);
  if (cached) return { status: "ready", image: cached };
  return state?.url === url ? state.result : { status: "loading" };
}

/** Test hook: forgets decoded images. */
export function forgetSourceImages(): void {
  loaded.clear();
}
