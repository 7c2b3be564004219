import { dataUrlMimeType, fileExtension, kindsOfExtension } from "@atelier/core";
import { mediaHref, mediaSrc } from "../nodes/viewers/safe-url.ts";

/** How the app page shows one value an output produced. */
export type OutputShown =
  | { kind: "image" | "video" | "audio" | "model"; src: string }
  | { kind: "file"; href: string }
  | { kind: "text"; text: string }
  | { kind: "blocked" };

const MODEL_KIND = { "3d": "model" } as const;

/** The kind of media an address holds: its data type, else its file extension. */
function mediaKindOf(url: string): "image" | "video" | "audio" | "model" | null {
  if (url.slice(0, 5).toLowerCase() === "data:") {
    const type = dataUrlMimeType(url) ?? "";
    const major = type.split("/")[0];
    return major === "image" || major === "video" || major === "audio" ? major : null;
  }
  const path = url.split(/[?#]/)[0] ?? "";
  const kind = kindsOfExtension(fileExtension(path))[0];
  if (!kind) return null;
  return kind === "3d" ? MODEL_KIND[kind] : kind;
}

const looksLikeAddress = (value: string) =>
  /^(https?:|data:|blob:)/i.test(value) || value.startsWith("/api/media/");

/**
 * A run output's value as the page shows it: media through the URL allow-list (an address
 * it refuses is "blocked", never shown), a file of another kind as a link, anything else
 * as plain text.
 */
export function outputShown(value: string): OutputShown {
  if (!looksLikeAddress(value.trim())) return { kind: "text", text: value };
  const kind = mediaKindOf(value.trim());
  if (!kind) {
    // A file of no kind we play: offered as a link, when the address may be opened.
    const href = mediaHref(value);
    return href ? { kind: "file", href } : { kind: "blocked" };
  }
  const src = mediaSrc(value, kind);
  return src ? { kind, src } : { kind: "blocked" };
}
