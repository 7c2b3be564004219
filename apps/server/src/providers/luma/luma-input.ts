import type { NodeRun } from "../provider.ts";
import { fatalError as fatal, parseJson, record } from "../transport.ts";

/*
 * Luma's wire format: node runs → create bodies, and its (unsigned) callbacks.
 */

/** Messages shown to users (never secrets, URLs or provider internals). */
export const LUMA_USER_MESSAGES = {
  failed: "Generation failed",
  keyRejected: "The Luma API key was rejected",
  refused: "Luma refused this request for the account",
  unknownEndpoint: "The model endpoint was not found",
  lost: "Luma no longer knows this generation",
  noMedia: "The node's media input is not connected",
  outcomeUnknown:
    "The provider did not confirm the request; it was not sent again to avoid a second charge",
} as const;

/** The create endpoints we speak, as the catalogue's `luma` variants name them. */
export const LUMA_ENDPOINTS = [
  "generations/video",
  "generations/video/modify",
  "generations/video/reframe",
  "generations/image",
  "generations/image/reframe",
] as const;
type LumaEndpoint = (typeof LUMA_ENDPOINTS)[number];

export const ID_PATTERN = /^[\w-]{1,128}$/;

export const str = (v: unknown): string | undefined =>
  typeof v === "string" && v !== "" ? v : undefined;

/** Drops undefined fields, so absent optionals are not sent at all. */
function compact(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

/** Our catalogue names Ray 2 Flash as fal does (`ray-2-flash`); Luma calls it `ray-flash-2`. */
const videoModel = (v: unknown) => (v === "ray-2-flash" ? "ray-flash-2" : (str(v) ?? "ray-2"));

export function checkEndpoint(endpoint: string): LumaEndpoint {
  if ((LUMA_ENDPOINTS as readonly string[]).includes(endpoint)) return endpoint as LumaEndpoint;
  throw fatal("luma: unknown endpoint", LUMA_USER_MESSAGES.unknownEndpoint);
}

/**
 * Maps our node run to Luma's create body: ray (`keyframes` from `image`/`endFrame`), modify
 * and reframe (`media` from `media`/`video1`, `first_frame` from `image`), photon
 * (`image_ref`, `style_ref`, `modify_image_ref` weighted by `strength`) and image reframe.
 */
export function buildLumaInput(run: NodeRun): Record<string, unknown> {
  const endpoint = checkEndpoint(run.endpoint);
  const { inputs, params } = run;
  const urls = (id: string) => [inputs[id] ?? []].flat().filter((u) => u !== "");
  const url = (...ids: string[]) => ids.flatMap(urls)[0];
  const ref = (...ids: string[]) => {
    const u = url(...ids);
    return u ? { url: u } : undefined;
  };
  const media = (...ids: string[]) => {
    const found = ref(...ids);
    if (!found) throw fatal("luma: no media input", LUMA_USER_MESSAGES.noMedia);
    return found;
  };
  const refs = (id: string) =>
    urls(id).length > 0 ? urls(id).map((u) => ({ url: u })) : undefined;
  // A connected prompt wins over the typed one; an empty prompt is left out.
  const prompt = str(url("prompt")) ?? str(params.prompt);
  const aspect_ratio = str(params.aspectRatio);
  switch (endpoint) {
    case "generations/video": {
      const frame = (id: string) => (url(id) ? { type: "image", url: url(id) } : undefined);
      const keyframes = compact({ frame0: frame("image"), frame1: frame("endFrame") });
      return compact({
        prompt,
        model: videoModel(params.model),
        aspect_ratio,
        resolution: str(params.resolution),
        duration: str(params.duration),
        loop: typeof params.loop === "boolean" ? params.loop : undefined,
        keyframes: Object.keys(keyframes).length > 0 ? keyframes : undefined,
      });
    }
    case "generations/video/modify":
    case "generations/video/reframe": {
      const modify = endpoint === "generations/video/modify";
      return compact({
        generation_type: modify ? "modify_video" : "reframe_video",
        prompt,
        model: videoModel(params.model),
        ...(modify ? { mode: str(params.mode) } : { aspect_ratio }),
        media: media("media", "video1"),
        first_frame: ref("image"),
      });
    }
    case "generations/image": {
      const image = url("image");
      const weight = typeof params.strength === "number" ? params.strength : undefined;
      return compact({
        prompt,
        model: str(params.model) ?? "photon-1",
        aspect_ratio,
        image_ref: refs("referenceImages"),
        style_ref: refs("styleReference"),
        modify_image_ref: image ? compact({ url: image, weight }) : undefined,
      });
    }
    case "generations/image/reframe":
      return compact({
        generation_type: "reframe_image",
        prompt,
        model: str(params.model) ?? "photon-1",
        aspect_ratio,
        media: media("media", "image"),
      });
  }
}

/**
 * Reads a Luma callback body (parsed JSON, a JSON string or bytes) → `{ id, state }`, or null
 * when it is not a Generation. Luma does not sign callbacks, so anyone who knows the URL can
 * post one: the engine must treat it only as a hint to re-read the generation with the key
 * (`status`/`result`), never trust its state or assets, and put an unguessable per-job token
 * in the callback path.
 */
export function parseLumaCallback(body: unknown): { id: string; state: string } | null {
  let value = body;
  if (typeof value === "string" || value instanceof Uint8Array) {
    value = parseJson(typeof value === "string" ? value : Buffer.from(value).toString());
  }
  const { id, state } = record(value);
  if (typeof id !== "string" || !ID_PATTERN.test(id) || !str(state)) return null;
  return { id, state: state as string };
}
