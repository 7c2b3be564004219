import type { NodeRun, ProviderResult, ResultMedia } from "../provider.ts";
import { ProviderError } from "../provider.ts";
import { inputFetchError, parseJson, record as rec } from "../transport.ts";

/*
 * The Gemini API's wire format (reference/catalogue: gemini-text, google-flash, veo-*):
 * request bodies for node runs, and readers of its answers. No I/O but input downloads.
 *
 * Every body carries our own top-level `model` (a bare model id): `submit` removes it and puts
 * it in the URL (`/v1beta/models/{model}:…`), so a node's model choice (gemini-text `model`,
 * Veo `fast`/`lite`) survives the engine's one endpoint per node.
 *
 * Images: generateContent gets `fileData: { mimeType, fileUri }` parts holding our http(s)
 * URLs, which Google fetches itself (external URLs, Gemini API update of January 2026; our
 * storage must be reachable from Google, as for fal). Veo takes only inline bytes
 * (`{ bytesBase64Encoded, mimeType }`; `gcsUri` is Vertex-only) and `buildInput` cannot
 * download, so it writes `{ fetchUrl, mimeType }` placeholders that `submit` replaces through
 * {@link inlineImages} before anything is sent.
 *
 * Left out on purpose: Veo `seed` and `generateAudio` (Google's SDK refuses them as "not
 * supported in Gemini API"; Veo 3 always makes audio), and fal-only google-flash parameters
 * (`numImages`, `outputFormat`, `safetyTolerance`): one image per call, in Google's format.
 */

/** Messages shown to users (never secrets, URLs or provider internals). */
export const GOOGLE_USER_MESSAGES = {
  failed: "Generation failed",
  keyRejected: "The Google API key was rejected",
  noModel: "This node has no Google model to run on",
  unknownModel: "The Google model was not found",
  lost: "The provider no longer knows this request",
  resultLost: "The result was lost when the server restarted; run the node again",
  blocked: "Google's safety filters blocked this generation",
  noOutput: "The model returned nothing",
  maxTokens: "The model used up its output tokens before answering",
  expired: "The result expired before it could be saved",
  tooLarge: "The file is larger than allowed",
  input: "An input image could not be read",
  outcomeUnknown:
    "The provider did not confirm the request; it was not sent again to avoid a second charge",
} as const;

/** Downloads one input image (the provider's default: the SSRF-safe fetcher, no key). */
export type FetchInput = (
  url: string,
) => Promise<{ bytes: Uint8Array; contentType: string | null }>;
type Port = { id: string; type: string };

const MODEL_ID = /^[a-z0-9][a-z0-9.-]{0,99}$/i;
const MIME: Record<string, string> = { jpg: "image/jpeg", jpeg: "image/jpeg", webp: "image/webp" };
for (const ext of ["png", "gif", "heic", "heif"]) MIME[ext] = `image/${ext}`;
const BLOCKED = new Set(["SAFETY", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII", "IMAGE_SAFETY"]);

export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** True for a bare model id (letters, digits, dots and dashes). */
export const isModelId = (v: unknown): v is string => typeof v === "string" && MODEL_ID.test(v);

/** `models/gemini-2.5-flash:generateContent`, `veo-2.0-generate-001`… → the model id, else null. */
export function modelOfEndpoint(endpoint: string): string | null {
  const match = /^(?:models\/)?([^/:]+)(?::(?:generateContent|predictLongRunning))?$/.exec(
    endpoint,
  );
  const id = match?.[1];
  return isModelId(id) ? id : null;
}

/** An image MIME type from the URL path's extension; PNG when unknown. */
export function imageMimeOf(url: string): string {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {}
  return MIME[/\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? ""] ?? "image/png";
}

const list = (value: string | string[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).filter((v) => v !== "");
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v : undefined);
const filePart = (url: string) => ({ fileData: { mimeType: imageMimeOf(url), fileUri: url } });
const placeholder = (url: string) => ({ fetchUrl: url, mimeType: imageMimeOf(url) });

/**
 * The Gemini request body for a node run (see the module comment); gemini-text and other
 * non-Veo, non-image models make text. Throws a fatal `ProviderError` when the endpoint names
 * no Google model (a fal endpoint id, say).
 */
export function buildGoogleInput(run: NodeRun): Record<string, unknown> {
  const endpointModel = modelOfEndpoint(run.endpoint);
  if (!endpointModel) {
    throw new ProviderError(`google: endpoint ${run.endpoint} is no Gemini model`, "fatal", {
      userMessage: GOOGLE_USER_MESSAGES.noModel,
    });
  }
  const { params, inputs } = run;
  const connected = list(inputs.prompt).join("\n\n"); // a connected prompt wins
  const prompt = connected.trim() !== "" ? connected : (str(params.prompt) ?? "");
  if (run.nodeType !== "gemini-text" && /^veo-/i.test(endpointModel)) {
    const instance: Record<string, unknown> = { prompt };
    const [first] = [...list(inputs.image), ...list(inputs.firstFrame)];
    const [last] = list(inputs.lastFrame);
    const refs = list(inputs.referenceImages).slice(0, 3);
    if (first) instance.image = placeholder(first);
    if (last) instance.lastFrame = placeholder(last);
    if (refs.length > 0) {
      instance.referenceImages = refs.map((u) => ({
        image: placeholder(u),
        referenceType: "asset",
      }));
    }
    const parameters: Record<string, unknown> = { sampleCount: 1 };
    if (str(params.aspectRatio) && params.aspectRatio !== "auto") {
      parameters.aspectRatio = params.aspectRatio;
    }
    const duration = Number.parseInt(String(params.duration ?? ""), 10); // "8s" → 8
    if (duration > 0) parameters.durationSeconds = duration;
    if (str(params.negativePrompt)) parameters.negativePrompt = params.negativePrompt;
    if (str(params.resolution)) parameters.resolution = params.resolution;
    if (typeof params.enhancePrompt === "boolean") parameters.enhancePrompt = params.enhancePrompt;
    // `fast`/`lite`: veo-3.0-generate-001 → veo-3.0-fast-generate-001 (lite: unverified id).
    const variant = params.model === "fast" || params.model === "lite" ? params.model : null;
    const parts = /^veo-(\d+\.\d+)-(?:fast-|lite-)?generate-(.+)$/.exec(endpointModel);
    const model =
      variant && parts ? `veo-${parts[1]}-${variant}-generate-${parts[2]}` : endpointModel;
    return { model, instances: [instance], parameters };
  }
  const images = [...list(inputs.image), ...list(inputs.referenceImages)];
  const contents = [{ role: "user", parts: [...images.map(filePart), { text: prompt }] }];
  if (run.nodeType === "google-flash" || /image/i.test(endpointModel)) {
    const generationConfig: Record<string, unknown> = { responseModalities: ["IMAGE"] };
    if (str(params.aspectRatio) && params.aspectRatio !== "auto") {
      generationConfig.imageConfig = { aspectRatio: params.aspectRatio };
    }
    const seed = num(params.seed);
    if (seed !== undefined) generationConfig.seed = seed % 2 ** 31; // Gemini's seed is an int32
    return { model: endpointModel, contents, generationConfig };
  }
  const generationConfig: Record<string, unknown> = {};
  if (num(params.temperature) !== undefined) generationConfig.temperature = params.temperature;
  if (num(params.maxOutputTokens) !== undefined) {
    generationConfig.maxOutputTokens = params.maxOutputTokens;
  }
  const system = str(params.systemPrompt);
  return {
    model: isModelId(params.model) ? params.model : endpointModel,
    contents,
    ...(system ? { systemInstruction: { parts: [{ text: system }] } } : {}),
    generationConfig,
  };
}

/**
 * Replaces every `{ fetchUrl, mimeType }` under `instances` with `{ bytesBase64Encoded,
 * mimeType }`, each URL downloaded once; returns a new body. Nothing has been sent to Google
 * when this fails: timeouts, network errors and 429/5xx are `retryable`, the rest `fatal`.
 */
export async function inlineImages(
  body: Record<string, unknown>,
  fetchInput: FetchInput,
): Promise<Record<string, unknown>> {
  const cache = new Map<string, Promise<unknown>>();
  const load = async (url: string, fallback: string) => {
    try {
      const { bytes, contentType } = await fetchInput(url);
      const type = contentType?.split(";")[0]?.trim() ?? "";
      const mimeType = type.startsWith("image/") ? type : fallback;
      return { bytesBase64Encoded: Buffer.from(bytes).toString("base64"), mimeType };
    } catch (err) {
      throw inputFetchError("google: input image", err, GOOGLE_USER_MESSAGES);
    }
  };
  const walk = async (value: unknown): Promise<unknown> => {
    if (Array.isArray(value)) return Promise.all(value.map(walk));
    if (typeof value !== "object" || value === null) return value;
    const { fetchUrl, mimeType } = value as Record<string, unknown>;
    if (typeof fetchUrl === "string") {
      const fallback = typeof mimeType === "string" ? mimeType : "image/png";
      if (!cache.has(fetchUrl)) cache.set(fetchUrl, load(fetchUrl, fallback));
      return cache.get(fetchUrl);
    }
    const entries = Object.entries(value);
    return Object.fromEntries(await Promise.all(entries.map(async ([k, v]) => [k, await walk(v)])));
  };
  return Array.isArray(body.instances) ? { ...body, instances: await walk(body.instances) } : body;
}

/** `{ error: { message, details: [ErrorInfo.reason, RetryInfo.retryDelay] } }`, read safely. */
export function googleError(text: string) {
  const error = rec(rec(parseJson(text)).error);
  const out: { message?: string; reason?: string; retryDelayMs?: number } = {};
  if (typeof error.message === "string") out.message = error.message;
  for (const detail of arr(error.details).map(rec)) {
    if (typeof detail.reason === "string") out.reason = detail.reason;
    const delay = /^(\d+(?:\.\d+)?)s$/.exec(String(detail.retryDelay ?? ""));
    if (delay) out.retryDelayMs = Math.round(Number(delay[1]) * 1000);
  }
  return out;
}

/** The port a result kind goes to: same id, else the first port of that type, else the kind. */
export const portOf = (kind: string, ports?: readonly Port[]) =>
  ports?.find((p) => p.id === kind)?.id ?? ports?.find((p) => p.type === kind)?.id ?? kind;

/**
 * A generateContent answer → our result (text to the text port, inline images to the image
 * port, base64 elided from `raw`), or the user-safe reason it holds nothing usable.
 * `plain` vets Google's own words before they are shown.
 */
export function readGenerated(
  answer: unknown,
  wantsImage: boolean,
  plain: (message: unknown) => string | undefined,
  ports?: readonly Port[],
): { result: ProviderResult } | { error: string } {
  const candidate = rec(arr(rec(answer).candidates)[0]);
  const texts: string[] = [];
  const media: ResultMedia[] = [];
  for (const part of arr(rec(candidate.content).parts).map(rec)) {
    if (typeof part.text === "string" && part.thought !== true) texts.push(part.text);
    const inline = rec(part.inlineData ?? part.inline_data);
    if (typeof inline.data !== "string" || inline.data === "") continue;
    const type = inline.mimeType ?? inline.mime_type;
    const bytes = new Uint8Array(Buffer.from(inline.data, "base64"));
    media.push({ output: portOf("image", ports), bytes, contentType: String(type ?? "image/png") });
  }
  const text = texts.join("");
  if (wantsImage ? media.length === 0 : text === "") {
    const reason = String(candidate.finishReason ?? "");
    if (rec(rec(answer).promptFeedback).blockReason || BLOCKED.has(reason)) {
      return { error: GOOGLE_USER_MESSAGES.blocked };
    }
    if (reason === "MAX_TOKENS") return { error: GOOGLE_USER_MESSAGES.maxTokens };
    return { error: plain(text) ?? GOOGLE_USER_MESSAGES.noOutput }; // e.g. a refusal in words
  }
  const raw = JSON.parse(
    JSON.stringify(answer, (k, v) =>
      k === "data" && typeof v === "string" ? `[${v.length} base64 chars]` : v,
    ),
  );
  const textPort = ports ? ports.find((p) => p.type === "text")?.id : "text";
  return { result: { raw, media, ...(text && textPort ? { values: { [textPort]: text } } : {}) } };
}

/** A Veo operation → running, cancelled (code 1), failed with a user-safe reason, or samples. */
export function readOperation(value: unknown, plain: (message: unknown) => string | undefined) {
  const op = rec(value);
  if (op.done !== true) return { state: "running" as const };
  if (op.error !== undefined) {
    const { code, message } = rec(op.error);
    if (code === 1) return { state: "cancelled" as const };
    return { state: "failed" as const, error: plain(message) ?? GOOGLE_USER_MESSAGES.failed };
  }
  const response = rec(rec(op.response).generateVideoResponse);
  const samples = arr(response.generatedSamples).map((s) => rec(rec(s).video));
  if (samples.length > 0) return { state: "done" as const, samples };
  const reasons = arr(response.raiMediaFilteredReasons).map(plain).filter(Boolean);
  const blocked = reasons.length > 0 || Number(response.raiMediaFilteredCount) > 0;
  const error = blocked ? (reasons[0] ?? GOOGLE_USER_MESSAGES.blocked) : undefined;
  return { state: "failed" as const, error: error ?? GOOGLE_USER_MESSAGES.noOutput };
}
