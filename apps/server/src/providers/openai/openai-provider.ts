import type { GenerationProvider, JobStatus, ProviderStatus, ResultMedia } from "../provider.ts";
import { ProviderError, type SubmitOutcomeUnknownError } from "../provider.ts";
import { createSafeFetcher } from "../safe-fetch.ts";
import {
  type Answer,
  exchange as exchangeOnce,
  fatalError as fatal,
  keepAnswer,
  outcomeUnknown,
  phaseOf,
  submitPhaseError,
  transportError as transport,
} from "../transport.ts";
import {
  buildOpenAIInput,
  endpointKind,
  httpError as httpErrorOf,
  imageRequest,
  OPENAI_USER_MESSAGES as M,
  type OpenAIFetchInput,
  type OpenAIImage,
  parseJson,
  plainText,
  readImages,
  rec,
  sniffImage,
  videoRequest,
} from "./openai-input.ts";

export { OPENAI_USER_MESSAGES, type OpenAIFetchInput } from "./openai-input.ts";

/*
 * The OpenAI API behind `GenerationProvider` (reference/catalogue gpt-image, sora-video), plain
 * fetch, the key only in the `Authorization` header of calls to the configured API origin.
 *
 * GPT Image answers synchronously (and slowly): `submit` makes the call and keeps the decoded
 * images in memory under `img-<uuid>`, `status` answers at once, `result` maps them. A restart
 * loses that memory: `result` then throws {@link OpenAIResultLostError} (`retryable`,
 * `resultLost`) so the engine can run the node again. Sora is a job: `POST /videos` → `{ id }`,
 * `status` reads `GET /videos/{id}`, `result` downloads `/videos/{id}/content` (and the
 * thumbnail for an image port) itself, size capped, as `ResultMedia` URLs carry no headers.
 * `cancel` sends `DELETE /videos/{id}` (documented for finished videos: a refusal is a no-op).
 * No retries and no idempotency key (OpenAI documents none): the job worker owns retries.
 */

/** A synchronous image answer this process no longer holds (restart, expiry): run again. */
export class OpenAIResultLostError extends ProviderError {
  readonly resultLost = true;
  constructor(requestId: string) {
    super(`openai result ${requestId}: answer not in memory`, "retryable", {
      userMessage: M.resultLost,
    });
    this.name = "OpenAIResultLostError";
  }
}

export interface OpenAIProviderOptions {
  /** The OpenAI API key (`Authorization: Bearer …`). Never appears in errors. */
  key: string;
  /** Default `https://api.openai.com/v1` (tests: the fake's URL). */
  baseUrl?: string;
  /** Fetch for API calls and downloads (default: global fetch). */
  fetch?: typeof fetch;
  /** Deadline of a video create, a poll or a cancel. Default 30 s. */
  timeoutMs?: number;
  /** Deadline of one synchronous image call. Default 180 s. */
  imageTimeoutMs?: number;
  /** Deadline of one video or thumbnail download (default 120 s) and its cap (100 MB). */
  downloadTimeoutMs?: number;
  maxVideoBytes?: number;
  /** Wait when a 429 says nothing usable. Default 5 s. */
  defaultRetryAfterMs?: number;
  /** Reads input images (gpt-image edits, Sora `input_reference`). Default: SSRF-safe fetch. */
  fetchInput?: OpenAIFetchInput;
  /** `host:port` entries the default `fetchInput` may reach despite a non-public address. */
  allowMediaHosts?: string[];
}

const SYNC_ID = /^img-[\w-]{1,64}$/;
const VIDEO_ID = /^[\w-]{1,128}$/;
const SYNC_TTL_MS = 30 * 60_000;
const MAX_SYNC = 32; // image answers kept at once (several MB each)
const STATES = new Map<unknown, JobStatus>([
  ["queued", "IN_QUEUE"],
  ["in_progress", "IN_PROGRESS"],
  ["completed", "COMPLETED"],
  ["failed", "FAILED"],
]);
const IDLE = { queuePosition: null, progress: null, logs: [] };
const is2xx = (status: number) => status >= 200 && status < 300;

/**
 * Creates the OpenAI adapter. Error kinds: 429 → `rate_limited` (retry-after-ms, Retry-After,
 * else `x-ratelimit-reset-requests`; `insufficient_quota` is `fatal`); 5xx, timeouts, network
 * errors and malformed answers → `retryable` for reads; a submit failing after sending →
 * {@link SubmitOutcomeUnknownError}, but an image 500/503 is `retryable` (no image exists);
 * refused connections → `retryable`; 400 → `fatal` with OpenAI's message when plain (content
 * policy); 401/403 → `fatal` "key rejected" (or "organization must be verified").
 */
export function createOpenAIProvider(options: OpenAIProviderOptions): GenerationProvider {
  const base = (options.baseUrl ?? "https://api.openai.com/v1").replace(/\/+$/, "");
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const auth = { Authorization: `Bearer ${options.key}` };
  const sync = new Map<string, { images: OpenAIImage[]; raw: unknown; at: number }>();
  const httpError = (what: string, answer: Answer, notFound: string) =>
    httpErrorOf(what, answer, notFound, options.key, options.defaultRetryAfterMs ?? 5_000);
  const fetchInput: OpenAIFetchInput =
    options.fetchInput ??
    ((url) => {
      const allowHosts = options.allowMediaHosts ?? [];
      const fetcher = createSafeFetcher({ allowHosts, timeoutMs, maxBytes: 25 << 20 });
      return fetcher.fetchBytes(url).finally(() => fetcher.close());
    });

  /** One HTTP exchange with its own deadline; transport failures come back as a phase. */
  function exchange(method: string, path: string, body?: unknown, ms = timeoutMs) {
    const form = body instanceof FormData;
    const headers: Record<string, string> = { ...auth, Accept: "application/json" };
    if (body !== undefined && !form) headers["Content-Type"] = "application/json";
    const payload = body === undefined ? {} : { body: form ? body : JSON.stringify(body) };
    return exchangeOnce(doFetch, `${base}${path}`, { method, headers, ...payload }, ms);
  }

  function checkIds(endpoint: string, requestId: string): "image" | "video" {
    const kind = endpointKind(endpoint);
    if (!(kind === "image" ? SYNC_ID : VIDEO_ID).test(requestId)) {
      throw fatal("openai: invalid request id", M.lost);
    }
    return kind;
  }

  async function readVideo(what: string, id: string) {
    const answer = await exchange("GET", `/videos/${id}`);
    if (typeof answer === "string") throw transport(what, answer);
    if (!is2xx(answer.status)) throw httpError(what, answer, M.lost);
    const video = parseJson(answer.text);
    if (!video) throw new ProviderError(`${what}: malformed JSON`, "retryable");
    return video;
  }
  const failureText = (video: Record<string, unknown>) =>
    plainText(rec(video.error).message, options.key) ?? M.failed;

  /** GETs `/videos/{id}/content` with the key, size capped, inside the result call. */
  async function download(what: string, id: string, variant: "video" | "thumbnail") {
    const max = options.maxVideoBytes ?? 100 << 20;
    const signal = AbortSignal.timeout(options.downloadTimeoutMs ?? 120_000);
    const tooLarge = () => fatal(`${what}: ${variant} too large`, M.tooLarge);
    const query = variant === "video" ? "" : `?variant=${variant}`;
    try {
      // A redirect is followed; fetch drops `Authorization` when it leaves the API's origin.
      const headers = { ...auth, Accept: "application/binary" };
      const res = await doFetch(`${base}/videos/${id}/content${query}`, { signal, headers });
      if (!is2xx(res.status)) {
        const text = await res.text().catch(() => "");
        throw httpError(what, { status: res.status, headers: res.headers, text }, M.lost);
      }
      if (Number(res.headers.get("content-length")) > max) {
        await res.body?.cancel();
        throw tooLarge();
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of res.body ?? []) {
        size += (chunk as Uint8Array).byteLength;
        if (size > max) throw tooLarge();
        chunks.push(chunk as Uint8Array);
      }
      const bytes = new Uint8Array(Buffer.concat(chunks));
      return { bytes, contentType: res.headers.get("content-type")?.split(";")[0] ?? null };
    } catch (err) {
      if (err instanceof ProviderError) throw err;
      throw transport(`${what} ${variant}`, phaseOf(err, signal));
    }
  }

  /** Keeps an image answer, dropping expired ones and the oldest beyond the cap. */
  const keep = (images: OpenAIImage[], raw: unknown) =>
    keepAnswer(sync, "img", { images, raw }, { max: MAX_SYNC, ttlMs: SYNC_TTL_MS });

  return {
    id: "openai",
    buildInput: buildOpenAIInput,

    async submit(request) {
      const kind = endpointKind(request.endpoint);
      const what = `openai submit ${request.endpoint}`;
      const call =
        kind === "image"
          ? await imageRequest(request.input, fetchInput)
          : { path: "/videos", body: await videoRequest(request.input, fetchInput) };
      const ms = kind === "image" ? (options.imageTimeoutMs ?? 180_000) : timeoutMs;
      const answer = await exchange("POST", call.path, call.body, ms);
      if (typeof answer === "string") throw submitPhaseError(what, answer, M.outcomeUnknown);
      const unknown = (reason: SubmitOutcomeUnknownError["reason"], status: number) =>
        outcomeUnknown(what, reason, M.outcomeUnknown, status);
      const { status } = answer;
      const body = parseJson(answer.text);
      if (is2xx(status)) {
        if (!body) throw unknown("bad_answer", status);
        if (kind === "image") {
          const read = readImages(body, request.input.output_format);
          return { requestId: keep(read.images, read.raw) };
        }
        if (typeof body.id === "string" && VIDEO_ID.test(body.id)) return { requestId: body.id };
        throw unknown("bad_answer", status);
      }
      if (status < 500) throw httpError(what, answer, M.unknownEndpoint);
      // An image call that OpenAI answered with 500/503 made nothing; a gateway's 502/504 or
      // a video 5xx proves nothing either way.
      if (kind === "image" && [500, 503].includes(status)) throw httpError(what, answer, M.failed);
      throw unknown(status === 504 ? "timeout" : "server_error", status);
    },

    async status(endpoint, requestId): Promise<ProviderStatus> {
      if (checkIds(endpoint, requestId) === "image") {
        // A missing answer is reported by `result`, which can say what to do about it.
        const entry = sync.get(requestId);
        if (entry?.images.length === 0) return { ...IDLE, status: "FAILED", error: M.noImage };
        return { ...IDLE, status: "COMPLETED" };
      }
      const video = await readVideo(`openai status ${requestId}`, requestId);
      // Unknown statuses are not final (the worker has a deadline).
      const status = STATES.get(video.status) ?? "IN_PROGRESS";
      const p = video.progress;
      const progress =
        status === "IN_PROGRESS" && typeof p === "number" && Number.isFinite(p)
          ? Math.round(Math.min(100, Math.max(0, p)))
          : null;
      return {
        ...IDLE,
        status,
        progress,
        ...(status === "FAILED" ? { error: failureText(video) } : {}),
      };
    },

    async result(endpoint, requestId, context) {
      const what = `openai result ${requestId}`;
      const ports = context?.outputs;
      const imagePort =
        ports?.find((p) => p.id === "image")?.id ?? ports?.find((p) => p.type === "image")?.id;
      if (checkIds(endpoint, requestId) === "image") {
        const entry = sync.get(requestId);
        if (!entry) throw new OpenAIResultLostError(requestId);
        if (entry.images.length === 0) throw fatal(`${what}: no image`, M.noImage);
        const output = ports ? imagePort : "image";
        const media = output ? entry.images.map((image) => ({ output, ...image })) : [];
        return { raw: entry.raw, media };
      }
      const video = await readVideo(what, requestId);
      if (video.status === "failed") throw fatal(`${what}: video failed`, failureText(video));
      if (video.status !== "completed") {
        throw new ProviderError(`${what}: video not finished`, "retryable");
      }
      const media: ResultMedia[] = [];
      const videoPort = ports ? ports.find((p) => p.type === "video")?.id : "video";
      if (videoPort) {
        const file = await download(what, requestId, "video");
        const header = file.contentType ?? ""; // may be a generic binary type
        const contentType = header.startsWith("video/") ? header : "video/mp4";
        media.push({ output: videoPort, bytes: file.bytes, contentType });
      }
      if (ports && imagePort) {
        // The thumbnail is a bonus frame: a transient failure retries, a refusal skips it.
        const frame = await download(what, requestId, "thumbnail").catch((err: ProviderError) => {
          if (err.kind !== "fatal" || err.options.userMessage === M.keyRejected) throw err;
          return null;
        });
        const type = frame && (sniffImage(frame.bytes) ?? "image/webp");
        if (frame && type) media.push({ output: imagePort, bytes: frame.bytes, contentType: type });
      }
      return { raw: video, media };
    },

    async cancel(endpoint, requestId) {
      if (checkIds(endpoint, requestId) === "image") return void sync.delete(requestId);
      const what = `openai cancel ${requestId}`;
      const answer = await exchange("DELETE", `/videos/${requestId}`);
      if (typeof answer === "string") throw transport(what, answer);
      // Not deletable while running (400/409) or already gone (404): nothing left to stop.
      if (is2xx(answer.status) || [400, 404, 409].includes(answer.status)) return;
      throw httpError(what, answer, M.lost);
    },
  };
}
