import { isIP } from "node:net";
import type { ProviderResult, ResultMedia } from "../provider.ts";
import { isPublicAddress } from "../safe-fetch.ts";

/**
 * Maps a fal result body to our `ProviderResult`, by shape rather than per model.
 *
 * fal models answer in a handful of shapes (reference/catalogue §0.3 and the per-kind notes):
 * `images: File[]`, `image: File`, `video: File`, `audio: File | File[]`, `audio_file: File`,
 * `model_mesh | model_glb | model: File`, `model_urls.glb: string`, `thumbnail | rendered_image`
 * (a snapshot / captured frame), and `text | output: string`. A `File` is an object with a `url`
 * and optional `content_type`; a bare URL string is accepted too. `data:` URIs (fal's
 * `sync_mode`) are decoded into bytes.
 *
 * Every media item gets a natural port id (`image`, `video`, `audio`, `model`, `snapshot`).
 * When the node's output ports are given, each item goes to the port of that id, else to the
 * first port of the matching type (`model` → an `object` port, `snapshot` → `capturedFrame`
 * or another image port than the primary one); an item with no fitting port is dropped (it
 * stays in `raw`). Without ports, the natural ids are used as they are.
 */

/** What we need of a node's output port (core's `OutputPortDefinition` fits). */
export interface MappablePort {
  id: string;
  type: string;
}

type Role = "image" | "video" | "audio" | "model" | "snapshot";

interface FoundMedia {
  role: Role;
  url: string;
  contentType?: string;
}

/** Result keys, in the order they are looked at, and the role of what they hold. */
const KEYS: ReadonlyArray<[key: string, role: Role]> = [
  ["images", "image"],
  ["image", "image"],
  ["video", "video"],
  ["videos", "video"],
  ["audio", "audio"],
  ["audio_file", "audio"],
  ["audio_url", "audio"],
  ["model_mesh", "model"],
  ["model_glb", "model"],
  ["model", "model"],
  ["thumbnail", "snapshot"],
  ["rendered_image", "snapshot"],
];

const TEXT_KEYS = ["text", "output"] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A `File`-like value, a URL string, or an array of either → found media. */
function collect(value: unknown, role: Role, into: FoundMedia[]): void {
  if (Array.isArray(value)) {
    for (const item of value) collect(item, role, into);
    return;
  }
  if (typeof value === "string" && /^(https?|data):/i.test(value)) {
    into.push({ role, url: value });
    return;
  }
  if (isRecord(value) && typeof value.url === "string" && value.url !== "") {
    const contentType = typeof value.content_type === "string" ? value.content_type : undefined;
    into.push({ role, url: value.url, ...(contentType ? { contentType } : {}) });
  }
}

/** Finds every media URL in a fal result body, in a stable order. */
export function findFalMedia(raw: unknown): FoundMedia[] {
  const found: FoundMedia[] = [];
  if (!isRecord(raw)) return found;
  for (const [key, role] of KEYS) collect(raw[key], role, found);
  // Meshy/Tripo style: `model_urls: { glb, obj, … }` — only the GLB, and only when no File.
  if (!found.some((m) => m.role === "model") && isRecord(raw.model_urls)) {
    collect(raw.model_urls.glb, "model", found);
  }
  return found;
}

const ROLE_TYPE: Record<Role, string> = {
  image: "image",
  video: "video",
  audio: "audio",
  model: "object",
  snapshot: "image",
};

/** Picks the port a role's media goes to, or null when the node has none for it. */
function portFor(role: Role, ports: readonly MappablePort[]): string | null {
  const byId = (id: string) => ports.find((p) => p.id === id)?.id;
  if (role === "snapshot") {
    const primary = ports.find((p) => p.type === "image" && p.id === "image");
    const other = ports.find((p) => p.type === "image" && p !== primary);
    return byId("snapshot") ?? byId("capturedFrame") ?? other?.id ?? null;
  }
  return byId(role) ?? ports.find((p) => p.type === ROLE_TYPE[role])?.id ?? null;
}

/** Decodes a base64 or percent-encoded `data:` URI; null if it is not one. */
function decodeDataUri(url: string): { bytes: Uint8Array; contentType: string } | null {
  const match = /^data:([^;,]*)((?:;[^;,]*)*?)(;base64)?,(.*)$/is.exec(url);
  if (!match) return null;
  const [, type = "", , base64, data = ""] = match;
  const bytes = base64 ? Buffer.from(data, "base64") : Buffer.from(decodeURIComponent(data));
  return { bytes: new Uint8Array(bytes), contentType: type || "application/octet-stream" };
}

/**
 * Turns a fal result body into `ProviderResult` (see the module comment for the rules).
 * @param raw the result JSON as fal returned it
 * @param ports the node's output ports; omit to use natural port ids
 */
export function mapFalResult(raw: unknown, ports?: readonly MappablePort[]): ProviderResult {
  const media: ResultMedia[] = [];
  for (const item of findFalMedia(raw)) {
    const output = ports ? portFor(item.role, ports) : item.role;
    if (output === null) continue;
    const decoded = decodeDataUri(item.url);
    if (decoded) media.push({ output, bytes: decoded.bytes, contentType: decoded.contentType });
    else
      media.push({
        output,
        url: item.url,
        ...(item.contentType ? { contentType: item.contentType } : {}),
      });
  }
  const values: Record<string, unknown> = {};
  if (isRecord(raw)) {
    const text = TEXT_KEYS.map((k) => raw[k]).find((v): v is string => typeof v === "string");
    if (text !== undefined) {
      const port = ports
        ? (ports.find((p) => p.id === "text")?.id ??
          ports.find((p) => p.type === "text")?.id ??
          ports.find((p) => p.id === "output")?.id)
        : "text";
      if (port) values[port] = text;
    }
  }
  return { raw, media, ...(Object.keys(values).length > 0 ? { values } : {}) };
}

/**
 * A cheap first check on a result media URL: http(s) only, no literal non-public IP and no
 * `localhost`, unless its `host:port` is allow-listed (tests). The download itself still goes
 * through the SSRF-guarded fetcher, which also checks what hostnames resolve to.
 */
export function isAllowedMediaUrl(raw: string, allowHosts: ReadonlySet<string>): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  if (allowHosts.has(`${url.hostname}:${port}`)) return true;
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (isIP(host)) return isPublicAddress(host);
  return host !== "localhost" && !host.endsWith(".localhost");
}
