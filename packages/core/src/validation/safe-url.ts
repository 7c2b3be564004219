/**
 * The one allow-list for URLs that come from workflow data, a provider or a user, checked
 * before such a URL reaches an element's attribute, a fetch, a loader, a new window or a
 * download (a `javascript:` gallery item in a public workflow ran in its viewers' sessions).
 *
 * Core has no URL parser, and a parser's leniency is what such attacks use, so this reads
 * a strict grammar instead: whatever it cannot read exactly is refused.
 */

/** What the URL will be shown as: it decides which embedded `data:` types pass. */
export type MediaUrlKind = "image" | "video" | "audio" | "model" | "any";

/**
 * `embed`: the `src` of an image, video or audio, a three.js loader, a fetch for a preview.
 * `open`: a link, a download or a new window — never SVG data, which runs script when opened.
 */
export type UrlUse = "embed" | "open";

export interface SafeUrlContext {
  /** This server's origin as the browser sees it, e.g. "https://atelier.example". */
  origin: string;
  kind?: MediaUrlKind;
  /** Defaults to `open`, the stricter use. */
  use?: UrlUse;
  /**
   * Which remote hosts media may come from (an operator's allow-list). Any host passes
   * when it is left out; this server's own host always passes, for `/api/media/` only.
   */
  allowHost?: (host: string) => boolean;
}

/** A control character, any whitespace or a backslash: no URL we accept holds one. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const UNREADABLE = /[\s\u0000-\u001f\u007f\\]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f]/;
const HTTP = /^(https?):\/\/([^/?#]*)([/?#].*)?$/i;
/** A host name (labels of letters, digits, `-` and `_`) or a bracketed IPv6, then a port. */
const AUTHORITY = /^([a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;
const TOKEN = "[a-z0-9!#$&^_.+-]+";
/** `data:` type/subtype, then `;name=value` parameters and `;base64`, then the comma. */
const DATA_HEADER = new RegExp(`^data:(${TOKEN}/${TOKEN})((?:;${TOKEN}(?:=${TOKEN})?)*),`, "i");
const BLOB = /^blob:(https?:\/\/[^/]+)\/[a-z0-9-]+$/i;
const MEDIA_PATH = "/api/media/";
const DEFAULT_PORTS: Record<string, string> = { http: "80", https: "443" };

interface Origin {
  scheme: string;
  host: string;
  port: string;
}

/** Scheme, host and port of an absolute http(s) URL (path after), or null. */
function readHttp(value: string): (Origin & { path: string }) | null {
  const url = HTTP.exec(value);
  const authority = url && AUTHORITY.exec(url[2] ?? "");
  if (!url || !authority) return null;
  const scheme = (url[1] as string).toLowerCase();
  const port = authority[2] ?? DEFAULT_PORTS[scheme] ?? "";
  if (Number(port) > 65535) return null;
  // A trailing dot names the same host; compare without it.
  const host = (authority[1] as string).toLowerCase().replace(/\.$/, "");
  return { scheme, host, port: String(Number(port)), path: url[3] ?? "/" };
}

const sameOrigin = (a: Origin | null, b: Origin | null): boolean =>
  !!a && !!b && a.scheme === b.scheme && a.host === b.host && a.port === b.port;

/**
 * A path of this server's media: under `/api/media/`, never climbing out of it (no `.` or
 * `..` segment, plain or percent-encoded, and no encoded slash or backslash).
 */
function isMediaPath(path: string): boolean {
  if (!path.startsWith(MEDIA_PATH)) return false;
  const pathname = path.split(/[?#]/)[0] as string;
  if (/%(2f|5c)/i.test(pathname)) return false;
  return pathname.split("/").every((segment) => !/^(\.|%2e){1,2}$/i.test(segment));
}

/** The `data:` MIME types each kind may show; SVG only inside an image element. */
function dataTypeAllowed(mime: string, kind: MediaUrlKind, use: UrlUse): boolean {
  const [family] = mime.split("/");
  if (mime === "image/svg+xml" && use !== "embed") return false;
  if (kind === "any") return ["image", "video", "audio", "model"].includes(family as string);
  return family === kind;
}

function safeDataUrl(value: string, kind: MediaUrlKind, use: UrlUse): boolean {
  const header = DATA_HEADER.exec(value);
  if (!header) return false;
  const body = value.slice(header[0].length);
  // Spaces may stay (SVG text); controls may not, since a browser drops some of them.
  return (
    body.length > 0 &&
    !CONTROL.test(body) &&
    dataTypeAllowed((header[1] as string).toLowerCase(), kind, use)
  );
}

/**
 * `value` when it is a URL media may be shown from or opened at, else null: an http(s) URL
 * without credentials (host through `allowHost`), a path or URL of this server's
 * `/api/media/`, a `blob:` of this origin, or a `data:` URL of the kind's media (SVG only
 * to embed). `javascript:`, `vbscript:`, `data:text/html`, `file:`, protocol-relative and
 * anything with a control character, whitespace or a backslash inside is refused.
 */
export function safeMediaUrl(value: unknown, context: SafeUrlContext): string | null {
  if (typeof value !== "string") return null;
  const url = value.trim();
  if (url.length === 0) return null;
  const kind = context.kind ?? "any";
  const use = context.use ?? "open";
  if (url.slice(0, 5).toLowerCase() === "data:") {
    return safeDataUrl(url, kind, use) ? url : null;
  }
  if (UNREADABLE.test(url)) return null;
  const ours = readHttp(context.origin);
  if (url.startsWith("/")) {
    // `//host` would leave this server; only our media paths are read as relative.
    return ours && isMediaPath(url) ? url : null;
  }
  const blob = BLOB.exec(url);
  if (blob) return sameOrigin(readHttp(blob[1] as string), ours) ? url : null;
  const remote = readHttp(url);
  if (!remote) return null;
  if (sameOrigin(remote, ours)) return isMediaPath(remote.path) ? url : null;
  return (context.allowHost?.(remote.host) ?? true) ? url : null;
}

/** An e-mail link: `mailto:` and an address, no header fields (`?cc=`, `&body=`). */
const MAILTO = /^mailto:[a-z0-9.!#$%&'*+/=^_`{|}~-]+@[a-z0-9-]+(\.[a-z0-9-]+)*$/i;

/**
 * A link written in notes or markdown: what `safeMediaUrl` lets a user open, or a plain
 * `mailto:` address; else null.
 */
export function safeLinkUrl(value: unknown, context: SafeUrlContext): string | null {
  if (typeof value === "string" && MAILTO.test(value.trim())) return value.trim();
  return safeMediaUrl(value, { ...context, kind: "any", use: "open" });
}
