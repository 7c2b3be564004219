import sharp from "sharp";
import type { NodeRun } from "../provider.ts";
import {
  type Answer,
  fatalError as fatal,
  inputFetchError,
  plainMessage,
  retryAfterHeader,
  transientError,
} from "../transport.ts";

/*
 * The OpenAI API's wire format (reference/catalogue: gpt-image, sora-video [OAI-SDK]): request
 * bodies for node runs, the multipart forms they become, and readers of OpenAI's answers.
 *
 * `buildInput` cannot download, so media inputs stay URLs in the body (`image: [url…]` for
 * gpt-image, `input_reference: url` for Sora); `submit` fetches them through `fetchInput` and
 * sends the files as multipart, the way the SDK does (`image` for one file, `image[]` for
 * several). Sora wants its reference image at exactly the video's size, so it is cropped to
 * fit (cover) here instead of failing with a 400.
 */

/** Messages shown to users (never secrets, URLs or provider internals). */
export const OPENAI_USER_MESSAGES = {
  failed: "Generation failed",
  keyRejected: "The OpenAI API key was rejected",
  unverified: "The OpenAI organization must be verified to use this model",
  quota: "The OpenAI account has run out of credits or quota",
  unknownEndpoint: "The model endpoint was not found",
  lost: "The provider no longer knows this request",
  resultLost: "The result was lost when the server restarted; run the node again",
  missingPrompt: "A prompt is required",
  noImage: "The model returned no image",
  input: "An input image could not be read",
  tooLarge: "The file is larger than allowed",
  outcomeUnknown:
    "The provider did not confirm the request; it was not sent again to avoid a second charge",
} as const;
const M = OPENAI_USER_MESSAGES;

/** Downloads one input file (the engine passes a reader of our storage). */
export type OpenAIFetchInput = (
  url: string,
) => Promise<{ bytes: Uint8Array; contentType: string | null }>;

type Json = Record<string, unknown>;
/** A generated image, decoded. */
export type OpenAIImage = { bytes: Uint8Array; contentType: string };

const IMAGE_ENDPOINT = /^gpt-image-[\w.-]{1,60}$/;
const VIDEO_ENDPOINT = /^(?:v1\/videos|sora-[\w.-]{1,60})$/;
const MAX_EDIT_IMAGES = 16; // OpenAI's cap for /images/edits
const FORMATS = new Set(["png", "jpeg", "webp"]);

const isRec = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
export const rec = (v: unknown): Json => (isRec(v) ? v : {});
export function parseJson(text: string): Json | null {
  try {
    const value: unknown = JSON.parse(text);
    return isRec(value) ? value : null;
  } catch {
    return null;
  }
}

/** Which API an endpoint id names (`gpt-image-*`: images; `v1/videos`, `sora-*`: video). */
export function endpointKind(endpoint: string): "image" | "video" {
  if (IMAGE_ENDPOINT.test(endpoint)) return "image";
  if (VIDEO_ENDPOINT.test(endpoint)) return "video";
  throw fatal(`openai: endpoint ${endpoint} is not OpenAI's`, M.unknownEndpoint);
}

const list = (value: string | string[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).filter((v) => v.trim() !== "");
const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v : undefined);
const optional = (key: string, value: unknown) => (value === undefined ? {} : { [key]: value });

/**
 * The OpenAI request body for a node run; absent optionals are left out. Images:
 * `{ model, prompt, n, size, quality, background, output_format }`, plus `image` (URLs) and
 * `input_fidelity` for edits. Video: `{ prompt, model, seconds, size, input_reference? }`.
 * Throws a fatal `ProviderError` for a non-OpenAI endpoint or an empty prompt.
 */
export function buildOpenAIInput(run: NodeRun): Record<string, unknown> {
  const kind = endpointKind(run.endpoint);
  const { inputs, params } = run;
  const connected = list(inputs.prompt).join("\n\n"); // a connected prompt wins
  const prompt = connected !== "" ? connected : str(params.prompt);
  if (!prompt) throw fatal(`openai ${run.nodeType}: no prompt`, M.missingPrompt);
  if (kind === "video") {
    const sora = run.endpoint.startsWith("sora-") ? run.endpoint : undefined;
    const model = str(params.model) ?? sora;
    const seconds = typeof params.seconds === "number" ? String(params.seconds) : params.seconds;
    return {
      prompt,
      ...optional("model", model),
      ...optional("seconds", str(seconds)),
      ...optional("size", str(params.size)),
      ...optional("input_reference", list(inputs.image)[0]),
    };
  }
  const images = list(inputs.image).slice(0, MAX_EDIT_IMAGES);
  const n = params.numImages;
  return {
    model: run.endpoint,
    prompt,
    ...optional("n", typeof n === "number" && Number.isInteger(n) ? n : undefined),
    ...optional("size", str(params.imageSize)),
    ...optional("quality", str(params.quality)),
    ...optional("background", str(params.background)),
    ...optional("output_format", str(params.outputFormat)),
    ...(images.length > 0
      ? { image: images, ...optional("input_fidelity", str(params.inputFidelity)) }
      : {}),
  };
}

/** The image type the bytes are (PNG, JPEG, WebP), else null. */
export function sniffImage(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.subarray(0, 12));
  if (head.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))) return "image/png";
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "image/jpeg";
  const webp =
    head.toString("latin1", 0, 4) === "RIFF" && head.toString("latin1", 8, 12) === "WEBP";
  return webp ? "image/webp" : null;
}

/** Downloads one input; nothing was sent to OpenAI yet, so transient failures are retryable. */
async function load(fetchInput: OpenAIFetchInput, url: string) {
  try {
    const { bytes, contentType } = await fetchInput(url);
    const header = contentType?.split(";")[0]?.trim() ?? "";
    const type = sniffImage(bytes) ?? (header.startsWith("image/") ? header : "image/png");
    return { bytes, type };
  } catch (err) {
    throw inputFetchError("openai: input image", err, M);
  }
}

const fileOf = (bytes: Uint8Array, type: string, name: string) =>
  new File([new Uint8Array(bytes)], `${name}.${type.split("/")[1] ?? "png"}`, { type });

/** Appends the body's plain fields (strings, numbers, booleans) to a form. */
function appendFields(form: FormData, body: Json, skip: string): void {
  for (const [key, value] of Object.entries(body)) {
    if (key === skip || value === undefined || value === null) continue;
    if (["string", "number", "boolean"].includes(typeof value)) form.append(key, String(value));
  }
}

/** An image body → the call to make: JSON to `/images/generations`, or a multipart edit. */
export async function imageRequest(body: Json, fetchInput: OpenAIFetchInput) {
  const urls = [body.image ?? []].flat().filter((u): u is string => typeof u === "string");
  if (urls.length === 0) {
    const { image: _ignored, input_fidelity: _edits, ...json } = body;
    return { path: "/images/generations", body: json as Json | FormData };
  }
  const files = await Promise.all(urls.map((url) => load(fetchInput, url)));
  const form = new FormData();
  appendFields(form, body, "image");
  const field = files.length === 1 ? "image" : "image[]";
  files.forEach((f, i) => void form.append(field, fileOf(f.bytes, f.type, `image-${i + 1}`)));
  return { path: "/images/edits", body: form as Json | FormData };
}

/** A video body → JSON, or multipart with `input_reference` fitted to the video's size. */
export async function videoRequest(body: Json, fetchInput: OpenAIFetchInput) {
  const url = body.input_reference;
  if (typeof url !== "string") return body as Json | FormData;
  const file = await load(fetchInput, url);
  const [w, h] = String(body.size ?? "720x1280")
    .split("x")
    .map(Number); // the API's default
  let { bytes, type } = file;
  try {
    const image = sharp(bytes);
    const meta = await image.metadata();
    if (w && h && (meta.width !== w || meta.height !== h)) {
      const out = type === "image/jpeg" ? "jpeg" : type === "image/webp" ? "webp" : "png";
      bytes = await image.resize(w, h, { fit: "cover" }).toFormat(out).toBuffer();
      type = `image/${out}`;
    }
  } catch {
    throw fatal("openai: input_reference is not a readable image", M.input);
  }
  const form = new FormData();
  appendFields(form, body, "input_reference");
  form.append("input_reference", fileOf(bytes, type, "reference"));
  return form as Json | FormData;
}

/**
 * HTTP status → ProviderError for every call; `notFound` is a 404's user message. A 429 waits
 * unless it is `insufficient_quota` (billing); a 403 about verification says so.
 */
export function httpError(what: string, a: Answer, notFound: string, key: string, wait: number) {
  const { status } = a;
  const message = `${what}: HTTP ${status}`;
  const error = openaiError(a.text);
  const quota = status === 429 && error.code === "insufficient_quota";
  const transient = quota
    ? undefined
    : transientError(message, status, retryAfterMs(a.headers, wait));
  if (transient) return transient;
  const unverified = status === 403 && /verif/i.test(error.message ?? "");
  let userMessage = plainText(error.message, key) ?? M.failed;
  if (status === 401 || status === 403) userMessage = unverified ? M.unverified : M.keyRejected;
  if (status === 404) userMessage = notFound;
  return fatal(message, status === 429 ? M.quota : userMessage, status);
}

/** `{ error: { message, type, code } }`, read safely. */
function openaiError(text: string) {
  const error = rec(parseJson(text)?.error);
  const s = (v: unknown) => (typeof v === "string" ? v : undefined);
  return { message: s(error.message), code: s(error.code), type: s(error.type) };
}

/**
 * OpenAI's own text (a 400's `error.message`, a failed video's `error.message`) when it is a
 * plain sentence: no URLs, markup, JSON, bare codes, key-like tokens or the key. Else null.
 */
export const plainText = (value: unknown, key: string) => plainMessage(value, key, PLAIN);
const PLAIN = {
  max: 500,
  collapse: true,
  reject: /:\/\/|[<>{}]|\bsk-[\w*-]{4,}|^[a-zA-Z0-9_.:-]+$/,
};

const DURATION =
  /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+)ms)?$/;
/**
 * How long a 429 asks to wait: `retry-after-ms`, `Retry-After` (seconds or a date), or
 * OpenAI's `x-ratelimit-reset-requests` (`1s`, `6m0s`, `20ms`); else the fallback.
 */
function retryAfterMs(headers: Headers, fallback: number): number {
  const ms = Number(headers.get("retry-after-ms") ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const after = retryAfterHeader(headers);
  if (after !== undefined) return after;
  const reset = DURATION.exec(headers.get("x-ratelimit-reset-requests")?.trim() || "-");
  if (!reset) return fallback;
  const [h = 0, m = 0, s = 0, msPart = 0] = reset.slice(1).map((p) => Number(p ?? 0));
  return Math.round(((h * 60 + m) * 60 + s) * 1000 + msPart);
}

/**
 * An images answer → its decoded images (type from the bytes, else `output_format`) and a
 * `raw` copy with the base64 elided.
 */
export function readImages(answer: Json, requested: unknown) {
  const format = str(answer.output_format) ?? str(requested) ?? "png";
  const images: OpenAIImage[] = [];
  for (const item of Array.isArray(answer.data) ? answer.data.map(rec) : []) {
    if (typeof item.b64_json !== "string" || item.b64_json === "") continue;
    const bytes = new Uint8Array(Buffer.from(item.b64_json, "base64"));
    const type = FORMATS.has(format) ? `image/${format}` : "image/png";
    images.push({ bytes, contentType: sniffImage(bytes) ?? type });
  }
  const raw = JSON.parse(
    JSON.stringify(answer, (k, v) =>
      k === "b64_json" && typeof v === "string" ? `[${v.length} base64 chars]` : v,
    ),
  );
  return { images, raw };
}
