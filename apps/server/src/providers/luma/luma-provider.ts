import { isAllowedMediaUrl } from "../fal/map-result.ts";
import type {
  GenerationProvider,
  NodeRun,
  ProviderStatus,
  ResultContext,
  ResultMedia,
} from "../provider.ts";
import { ProviderError, SubmitOutcomeUnknownError } from "../provider.ts";

/*
 * Luma Dream Machine behind `GenerationProvider` (reference/providers.md, Luma section;
 * catalogue/video.md §15–17 and image-and-text.md §12), over plain fetch: one request per
 * call and no hidden retries, because our job worker owns retries and a retried create could
 * start a second paid generation. Luma has no queue position, progress or logs.
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

export interface LumaProviderOptions {
  /** The Luma API key (`Authorization: Bearer …`). Never appears in errors. */
  key: string;
  /** Default `https://api.lumalabs.ai/dream-machine/v1` (tests: the fake's URL). */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Deadline for one call, body included. Default 30 s. */
  timeoutMs?: number;
  /** `host:port` entries allowed in asset URLs despite a non-public literal IP (tests). */
  allowMediaHosts?: string[];
  /** Wait when a 429 has no usable Retry-After. Default 5 s. */
  defaultRetryAfterMs?: number;
}

/** User text for fatal 4xx answers (400 on create uses Luma's own `detail`). */
const FATAL_TEXT: Record<number, string> = {
  401: LUMA_USER_MESSAGES.keyRejected,
  403: LUMA_USER_MESSAGES.refused,
  404: LUMA_USER_MESSAGES.lost,
};
const ID_PATTERN = /^[\w-]{1,128}$/;
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);
type Phase = "not_sent" | "timeout" | "lost";
type Answer = { status: number; headers: Headers; text: string };

const record = (v: unknown): Record<string, unknown> =>
  typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** Parsed JSON, or undefined when malformed (JSON.parse never yields undefined itself). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Before anything was sent (connection refused, DNS), at our deadline, or mid-exchange. */
function phaseOf(err: unknown, signal: AbortSignal): Phase {
  if (signal.aborted) return "timeout";
  for (let e = err, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && NOT_SENT.has(code)) return "not_sent";
  }
  return "lost";
}

function retryAfterMs(headers: Headers, fallback: number): number {
  const value = headers.get("retry-after")?.trim();
  if (!value) return fallback;
  const ms = /^\d+(\.\d+)?$/.test(value) ? Number(value) * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.max(0, Math.round(ms)) : fallback;
}

/** Drops undefined fields, so absent optionals are not sent at all. */
function compact(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

/** Our catalogue names Ray 2 Flash as fal does (`ray-2-flash`); Luma calls it `ray-flash-2`. */
const videoModel = (v: unknown) => (v === "ray-2-flash" ? "ray-flash-2" : (str(v) ?? "ray-2"));

const fatal = (message: string, userMessage: string, status?: number) =>
  new ProviderError(message, "fatal", { userMessage, ...(status ? { status } : {}) });

function checkEndpoint(endpoint: string): LumaEndpoint {
  if ((LUMA_ENDPOINTS as readonly string[]).includes(endpoint)) return endpoint as LumaEndpoint;
  throw fatal("luma: unknown endpoint", LUMA_USER_MESSAGES.unknownEndpoint);
}

function checkId(id: string): void {
  if (!ID_PATTERN.test(id)) throw fatal("luma: invalid generation id", LUMA_USER_MESSAGES.lost);
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

/**
 * Creates the Luma adapter. Errors: 429 → `rate_limited` (Retry-After); 5xx, timeouts, network
 * errors and malformed JSON → `retryable` on reads; a create that may have started a job
 * (timeout, dropped connection, 5xx, a 2xx without an id) → {@link SubmitOutcomeUnknownError};
 * refused connection → `retryable`; other 4xx → `fatal` (401 key rejected, 400 Luma's `detail`).
 */
export function createLumaProvider(options: LumaProviderOptions): GenerationProvider {
  const doFetch = options.fetch ?? fetch;
  const base = (options.baseUrl ?? "https://api.lumalabs.ai/dream-machine/v1").replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 30_000;
  const fallbackWait = options.defaultRetryAfterMs ?? 5_000;
  const allowHosts = new Set(options.allowMediaHosts ?? []);
  // Defence in depth: Luma's own texts are shown to users, so never let the key through.
  const hide = (text: string) => (options.key ? text.split(options.key).join("***") : text);
  const safe = (text: string) =>
    hide(text.replace(/\p{Cc}+/gu, " "))
      .trim()
      .slice(0, 300);

  async function exchange(method: string, path: string, body?: unknown): Promise<Answer | Phase> {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const res = await doFetch(`${base}/${path}`, {
        method,
        signal,
        headers: {
          Authorization: `Bearer ${options.key}`,
          Accept: "application/json",
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, headers: res.headers, text: await res.text() };
    } catch (err) {
      return phaseOf(err, signal);
    }
  }

  function httpError(what: string, { status, headers }: Answer): ProviderError {
    const message = `${what}: HTTP ${status}`;
    if (status === 429) {
      const retryAfter = retryAfterMs(headers, fallbackWait);
      return new ProviderError(message, "rate_limited", { status, retryAfterMs: retryAfter });
    }
    if (status >= 500) return new ProviderError(message, "retryable", { status });
    return fatal(message, FATAL_TEXT[status] ?? LUMA_USER_MESSAGES.failed, status);
  }

  const transportError = (what: string, phase: Phase) =>
    new ProviderError(`${what}: ${phase === "timeout" ? "timeout" : "network error"}`, "retryable");

  /** GET /generations/{id} → the Generation object; every failure is a ProviderError. */
  async function read(what: string, id: string): Promise<Record<string, unknown>> {
    checkId(id);
    const answer = await exchange("GET", `generations/${id}`);
    if (typeof answer === "string") throw transportError(what, answer);
    if (answer.status !== 200) throw httpError(what, answer);
    const json = parseJson(answer.text);
    if (json === undefined) throw new ProviderError(`${what}: malformed JSON`, "retryable");
    return record(json);
  }

  /** `failure_reason` (older docs: `state_reason`) made safe to show, else a generic text. */
  const reasonOf = (g: Record<string, unknown>) =>
    safe(str(g.failure_reason) ?? str(g.state_reason) ?? "") || LUMA_USER_MESSAGES.failed;

  type Unknown = SubmitOutcomeUnknownError["reason"];
  const unknownOutcome = (what: string, reason: Unknown, status?: number) =>
    new SubmitOutcomeUnknownError(`${what}: ${reason}`, reason, {
      userMessage: LUMA_USER_MESSAGES.outcomeUnknown,
      ...(status ? { status } : {}),
    });

  return {
    id: "luma",
    buildInput: buildLumaInput,

    async submit(request) {
      const endpoint = checkEndpoint(request.endpoint);
      const what = `luma submit ${endpoint}`;
      const body = request.webhookUrl
        ? { ...request.input, callback_url: request.webhookUrl }
        : request.input;
      // Luma takes no idempotency key, so a create whose answer was lost is never resent here.
      const answer = await exchange("POST", endpoint, body);
      if (answer === "not_sent") throw transportError(what, answer);
      if (typeof answer === "string") {
        throw unknownOutcome(what, answer === "timeout" ? "timeout" : "connection_lost");
      }
      const { status } = answer;
      const json = record(parseJson(answer.text));
      if (status >= 200 && status < 300) {
        const id = json.id;
        if (typeof id === "string" && ID_PATTERN.test(id)) return { requestId: id };
        throw unknownOutcome(what, "bad_answer", status);
      }
      if (status >= 500) throw unknownOutcome(what, "server_error", status);
      if (status === 400 || status === 422) {
        // Luma's validation text helps the user fix the node; structured details do not.
        const detail = str(json.detail);
        const userMessage = (detail && safe(detail)) || LUMA_USER_MESSAGES.failed;
        throw fatal(`${what}: HTTP ${status}`, userMessage, status);
      }
      if (status === 404) throw fatal(`${what}: HTTP 404`, LUMA_USER_MESSAGES.unknownEndpoint, 404);
      throw httpError(what, answer); // 429 and other 4xx: Luma refused it, no job exists.
    },

    async status(_endpoint, requestId): Promise<ProviderStatus> {
      const g = await read(`luma status ${requestId}`, requestId);
      const base = { queuePosition: null, progress: null, logs: [] };
      switch (g.state) {
        case "queued":
          return { ...base, status: "IN_QUEUE" };
        case "completed":
          return { ...base, status: "COMPLETED" };
        case "failed":
          return { ...base, status: "FAILED", error: reasonOf(g) };
        default: // dreaming, and states we do not know: not final (the worker has a deadline).
          return { ...base, status: "IN_PROGRESS" };
      }
    },

    async result(_endpoint, requestId, context?: ResultContext) {
      const what = `luma result ${requestId}`;
      const g = await read(what, requestId);
      if (g.state === "failed") throw fatal(`${what}: failed`, reasonOf(g));
      if (g.state !== "completed") throw new ProviderError(`${what}: not completed`, "retryable");
      const assets = record(g.assets);
      const ports = context?.outputs;
      const media: ResultMedia[] = [];
      for (const kind of ["video", "image"] as const) {
        const url = str(assets[kind]);
        // `image` on a video node is its frame: it goes to the first image port (capturedFrame).
        const output = ports
          ? (ports.find((p) => p.id === kind) ?? ports.find((p) => p.type === kind))?.id
          : kind;
        if (url && output) media.push({ output, url });
      }
      if (media.some((m) => !isAllowedMediaUrl(m.url ?? "", allowHosts))) {
        throw fatal(`${what}: asset URL is not a public http(s) URL`, LUMA_USER_MESSAGES.failed);
      }
      if (media.length === 0)
        throw fatal(`${what}: no asset for the outputs`, LUMA_USER_MESSAGES.failed);
      return { raw: g, media };
    },

    async cancel(_endpoint, requestId) {
      checkId(requestId);
      const what = `luma cancel ${requestId}`;
      const answer = await exchange("DELETE", `generations/${requestId}`);
      if (typeof answer === "string") throw transportError(what, answer);
      // Already gone is not a failure of the cancel.
      if ((answer.status >= 200 && answer.status < 300) || answer.status === 404) return;
      throw httpError(what, answer);
    },
  };
}
