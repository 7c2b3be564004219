import type { GenerationProvider, ProviderStatus, ResultMedia } from "../provider.ts";
import { ProviderError, type SubmitOutcomeUnknownError } from "../provider.ts";
import { createSafeFetcher, OutboundFetchError } from "../safe-fetch.ts";
import {
  type Answer,
  exchange as exchangeOnce,
  fatalError as fatal,
  jsonInit,
  keepAnswer,
  NOT_SENT_LOOKUP,
  outcomeUnknown,
  parseJson,
  plainMessage,
  record as rec,
  submitPhaseError,
  transientError,
  transportError as transport,
} from "../transport.ts";
import {
  arr,
  buildGoogleInput,
  type FetchInput,
  googleError,
  inlineImages,
  isModelId,
  GOOGLE_USER_MESSAGES as MSG,
  modelOfEndpoint,
  readGenerated,
  readOperation,
} from "./google-input.ts";

export { GOOGLE_USER_MESSAGES } from "./google-input.ts";

/*
 * The Gemini API behind `GenerationProvider` (reference/providers.md, Google), plain fetch,
 * the key in the `x-goog-api-key` header only: never in URLs or messages.
 *
 * Text and flash images (`generateContent`) answer synchronously: `submit` makes the call and
 * keeps the answer in memory under `sync-<uuid>` (nothing secret in it), `status` answers at
 * once, `result` maps it. A restart loses that memory: `result` then throws
 * {@link GoogleResultLostError} (`retryable`, `resultLost`) so the job can run the node again.
 * Veo (`predictLongRunning`) returns an operation whose name is the request id; `status` polls
 * it; `result` downloads the videos itself with the key header (size and time capped), as
 * `ResultMedia` has no headers and a `?key=` URL would leak the key into logs. The key goes
 * only to the configured API origin. Veo `cancel` posts `{name}:cancel`, unverified for the
 * Gemini API: "unsupported" or "gone" answers make it a no-op.
 */

/** A synchronous answer this process no longer holds (restart, expiry): run the node again. */
export class GoogleResultLostError extends ProviderError {
  readonly resultLost = true;
  constructor(requestId: string) {
    super(`google result ${requestId}: answer not in memory`, "retryable", {
      userMessage: MSG.resultLost,
    });
    this.name = "GoogleResultLostError";
  }
}

export interface GoogleProviderOptions {
  /** The Gemini API key. */
  key: string;
  /** Replaces `https://generativelanguage.googleapis.com` (tests: the fake's URL). */
  baseUrl?: string;
  /** Fetch for API calls (default: global fetch). */
  fetch?: typeof fetch;
  /** Deadline of a Veo submit, a poll or a cancel. Default 30 s. */
  timeoutMs?: number;
  /** Deadline of a synchronous generateContent call. Default 120 s. */
  generateTimeoutMs?: number;
  /** Deadline of one video download (default 30 s) and its size cap (default 100 MB). */
  downloadTimeoutMs?: number;
  maxVideoBytes?: number;
  /** Wait when a 429 says nothing usable. Default 5 s. */
  defaultRetryAfterMs?: number;
  /** How long (default 30 min) and how many (default 64) synchronous answers are kept. */
  syncTtlMs?: number;
  maxSyncResults?: number;
  /** Downloads Veo input images. Default: SSRF-safe fetcher, 20 MB, without the key. */
  fetchInput?: FetchInput;
  /** `host:port` entries the default fetchers may reach despite a non-public address. */
  allowMediaHosts?: string[];
}

const OPERATION = /^(?:models\/[\w.-]+\/)?operations\/[\w.-]+$/;
const SYNC_ID = /^sync-[\w-]{1,64}$/;
const IDLE = { queuePosition: null, progress: null, logs: [] };
/** Google's own message is shown when short, one line, and free of URLs and the key. */
const PLAIN = { max: 300, reject: /https?:|[\r\n]|key=/i };

/**
 * Creates the Google adapter. Error kinds: 429 → `rate_limited` (Retry-After, else Google's
 * RetryInfo); 5xx, timeouts and network errors → `retryable` for reads; a submit that fails
 * after sending → {@link SubmitOutcomeUnknownError} (Veo 5xx, and for every call timeouts,
 * dropped connections and unreadable 2xx), except a generateContent 500/503, which is
 * `retryable` (Google answered: no output exists); refused connections → `retryable`; 400 →
 * `fatal` with Google's message when plain; 401/403 and invalid keys → `fatal` "key rejected";
 * a 403/404 on an operation → FAILED "no longer knows this request".
 */
export function createGoogleProvider(options: GoogleProviderOptions): GenerationProvider {
  const base = (options.baseUrl ?? "https://generativelanguage.googleapis.com").replace(/\/+$/, "");
  const api = new URL(base);
  const apiHost = `${api.hostname}:${api.port || (api.protocol === "https:" ? 443 : 80)}`;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const fallbackWait = options.defaultRetryAfterMs ?? 5_000;
  const allow = options.allowMediaHosts ?? [];
  const sync = new Map<string, { answer: unknown; wantsImage: boolean; at: number }>();
  const fetchInput: FetchInput =
    options.fetchInput ??
    ((url) => {
      const fetcher = createSafeFetcher({ allowHosts: allow, timeoutMs, maxBytes: 20 << 20 });
      return fetcher.fetchBytes(url).finally(() => fetcher.close());
    });

  /** Google's own message, when short, one line, and free of URLs and the key. */
  const plain = (message: unknown) => plainMessage(message, options.key, PLAIN);

  /** One HTTP exchange with its own deadline; transport failures come back as a phase. */
  const exchange = (method: string, path: string, body: unknown, ms = timeoutMs) => {
    const init = jsonInit(method, { "x-goog-api-key": options.key }, body);
    return exchangeOnce(options.fetch ?? fetch, `${base}${path}`, init, ms, NOT_SENT_LOOKUP);
  };

  /** HTTP status → ProviderError for every call; `notFound` is a 404's user message. */
  function httpError(what: string, answer: Answer, notFound: string): ProviderError {
    const { status } = answer;
    const message = `${what}: HTTP ${status}`;
    const body = googleError(answer.text);
    // Retry-After in seconds (not dates), else Google's RetryInfo.
    const header = answer.headers.get("retry-after")?.trim() ?? "";
    const seconds = /^\d+(\.\d+)?$/.test(header) ? Number(header) * 1000 : undefined;
    const wait = Math.round(seconds ?? body.retryDelayMs ?? fallbackWait);
    const transient = transientError(message, status, wait);
    if (transient) return transient;
    const userMessage =
      status === 401 || status === 403 || body.reason?.startsWith("API_KEY_")
        ? MSG.keyRejected
        : status === 404
          ? notFound
          : (plain(body.message) ?? MSG.failed);
    return fatal(message, userMessage, status);
  }

  function checkName(what: string, name: string): void {
    if (!OPERATION.test(name)) throw fatal(`${what}: invalid request id`, MSG.lost);
  }

  /** GETs an operation; "lost" when Google no longer knows it (403/404). */
  async function getOperation(what: string, name: string): Promise<unknown> {
    checkName(what, name);
    const answer = await exchange("GET", `/v1beta/${name}`, undefined);
    if (typeof answer === "string") throw transport(what, answer);
    if (answer.status === 403 || answer.status === 404) return "lost";
    if (answer.status < 200 || answer.status > 299) throw httpError(what, answer, MSG.lost);
    const value = parseJson(answer.text);
    if (value === undefined) throw new ProviderError(`${what}: malformed JSON`, "retryable");
    return value;
  }

  /** Downloads one video with the key header, from the API's own origin only. */
  async function download(what: string, uri: string) {
    let origin = "";
    try {
      origin = new URL(uri).origin;
    } catch {}
    if (origin !== api.origin) throw fatal(`${what}: video URI not on the API host`, MSG.failed);
    const fetcher = createSafeFetcher({
      allowHosts: [...allow, apiHost],
      timeoutMs: options.downloadTimeoutMs ?? 30_000,
      maxBytes: options.maxVideoBytes ?? 100 << 20,
    });
    try {
      return await fetcher.fetchBytes(uri, { headers: { "x-goog-api-key": options.key } });
    } catch (err) {
      const e = err instanceof OutboundFetchError ? err : null;
      const status = e?.status ?? 0;
      const label = `${what}: download ${e ? `${e.code} ${status || ""}` : "failed"}`.trim();
      if (status === 429) {
        throw new ProviderError(label, "rate_limited", { retryAfterMs: fallbackWait });
      }
      if (!e || e.code === "timeout" || e.code === "network" || status >= 500) {
        throw new ProviderError(label, "retryable");
      }
      const userMessage =
        e.code === "too_large"
          ? MSG.tooLarge
          : status === 401
            ? MSG.keyRejected
            : status
              ? MSG.expired
              : MSG.failed;
      throw fatal(label, userMessage);
    } finally {
      await fetcher.close();
    }
  }

  /** Keeps a synchronous answer, dropping expired ones and the oldest beyond the cap. */
  const limits = { max: options.maxSyncResults ?? 64, ttlMs: options.syncTtlMs ?? 30 * 60_000 };
  const keep = (answer: unknown, wantsImage: boolean) =>
    keepAnswer(sync, "sync", { answer, wantsImage }, limits);

  return {
    id: "google",
    buildInput: buildGoogleInput,

    async submit(request) {
      const { model: fromBody, ...input } = request.input;
      const model = isModelId(fromBody) ? fromBody : modelOfEndpoint(request.endpoint);
      if (!model) throw fatal("google submit: no Gemini model", MSG.noModel);
      const long = Array.isArray(input.instances);
      const method = long ? "predictLongRunning" : "generateContent";
      const what = `google submit ${model}:${method}`;
      const body = long ? await inlineImages(input, fetchInput) : input;
      const ms = long ? timeoutMs : (options.generateTimeoutMs ?? 120_000);
      const answer = await exchange("POST", `/v1beta/models/${model}:${method}`, body, ms);
      if (typeof answer === "string") throw submitPhaseError(what, answer, MSG.outcomeUnknown);
      const unknown = (reason: SubmitOutcomeUnknownError["reason"], status: number) =>
        outcomeUnknown(what, reason, MSG.outcomeUnknown, status);
      const { status } = answer;
      if (status >= 200 && status < 300) {
        const value = parseJson(answer.text);
        if (value === undefined) throw unknown("bad_answer", status);
        if (!long) {
          const modalities = arr(rec(input.generationConfig).responseModalities);
          return { requestId: keep(value, modalities.map(String).includes("IMAGE")) };
        }
        const name = rec(value).name;
        if (typeof name === "string" && OPERATION.test(name)) return { requestId: name };
        throw unknown("bad_answer", status);
      }
      if (status < 500) throw httpError(what, answer, MSG.unknownModel);
      if (!long && status !== 504) throw httpError(what, answer, MSG.failed);
      throw unknown(status === 504 ? "timeout" : "server_error", status);
    },

    async status(_endpoint, requestId): Promise<ProviderStatus> {
      if (SYNC_ID.test(requestId)) {
        // A missing answer is reported by `result`, which can say what to do about it.
        const entry = sync.get(requestId);
        const read = entry && readGenerated(entry.answer, entry.wantsImage, plain);
        if (read && "error" in read) return { ...IDLE, status: "FAILED", error: read.error };
        return { ...IDLE, status: "COMPLETED" };
      }
      const value = await getOperation(`google status ${requestId}`, requestId);
      if (value === "lost") return { ...IDLE, status: "FAILED", error: MSG.lost };
      const op = readOperation(value, plain);
      if (op.state === "running") return { ...IDLE, status: "IN_PROGRESS" };
      if (op.state === "cancelled") return { ...IDLE, status: "CANCELLED" };
      if (op.state === "failed") return { ...IDLE, status: "FAILED", error: op.error };
      return { ...IDLE, status: "COMPLETED" };
    },

    async result(_endpoint, requestId, context) {
      const what = `google result ${requestId}`;
      const ports = context?.outputs;
      if (SYNC_ID.test(requestId)) {
        const entry = sync.get(requestId);
        if (!entry) throw new GoogleResultLostError(requestId);
        const read = readGenerated(entry.answer, entry.wantsImage, plain, ports);
        if ("result" in read) return read.result;
        throw fatal(`${what}: no output`, read.error);
      }
      const value = await getOperation(what, requestId);
      const op = value === "lost" ? null : readOperation(value, plain);
      if (op?.state === "running") throw new ProviderError(`${what}: not done`, "retryable");
      if (op?.state !== "done") {
        const userMessage = op === null ? MSG.lost : op.state === "failed" ? op.error : MSG.failed;
        throw fatal(`${what}: no video`, userMessage);
      }
      const media: ResultMedia[] = [];
      const output = ports?.find((p) => p.type === "video")?.id ?? "video";
      for (const video of op.samples) {
        const type = [video.encoding, video.mimeType].find((t) => typeof t === "string");
        if (typeof video.encodedVideo === "string") {
          const bytes = new Uint8Array(Buffer.from(video.encodedVideo, "base64"));
          media.push({ output, bytes, contentType: String(type ?? "video/mp4") });
        } else if (typeof video.uri === "string") {
          const file = await download(what, video.uri);
          const contentType = String(type ?? file.contentType ?? "video/mp4");
          media.push({ output, bytes: file.bytes, contentType });
        }
      }
      return { raw: value, media };
    },

    async cancel(_endpoint, requestId) {
      if (SYNC_ID.test(requestId)) return void sync.delete(requestId);
      const what = `google cancel ${requestId}`;
      checkName(what, requestId);
      const answer = await exchange("POST", `/v1beta/${requestId}:cancel`, {});
      if (typeof answer === "string") throw transport(what, answer);
      // Unsupported (400/405/501) or already gone (403/404): nothing left to cancel.
      const { status } = answer;
      if ((status >= 200 && status < 300) || [400, 403, 404, 405, 501].includes(status)) return;
      throw httpError(what, answer, MSG.lost);
    },
  };
}
