import { ApiError, createFalClient } from "@fal-ai/client";
import type { GenerationProvider, JobLog, ProviderStatus, SubmitRequest } from "../provider.ts";
import { ProviderError, SubmitOutcomeUnknownError } from "../provider.ts";
import {
  exchange as exchangeOnce,
  fatalError as fatal,
  jsonInit,
  phaseOf,
  record,
  retryAfterMs,
  submitPhaseError,
  transientError,
  transportError,
} from "../transport.ts";
import { buildFalInput } from "./fal-input.ts";
import { isAllowedMediaUrl, type MappablePort, mapFalResult } from "./map-result.ts";

/*
 * fal.ai behind `GenerationProvider` (reference/providers.md, fal section).
 *
 * Why plain `fetch` for submit, status and result: @fal-ai/client 1.10 hard-codes a retry
 * policy per queue call (submit and result: 3 retries on 429/502/503/504 and on network
 * errors; status: 5, plus 500) and merges it *over* the client-level `retry` option, with no
 * per-call override. A retried submit can create a second paid job, and retried reads hide
 * Retry-After and sleep up to ~30 s inside one call, while our job worker owns retries and
 * backoff. So those three speak the documented queue protocol directly; `cancel` uses the
 * client (it honours the client-level `retry: { maxRetries: 0 }`). Every request, ours or the
 * client's, goes through one `fetch` that rewrites fal's hosts to the configured base URLs.
 */

const QUEUE_HOST = "https://queue.fal.run";
const REST_HOSTS = ["https://rest.alpha.fal.ai", "https://rest.fal.ai"];

/** Messages shown to users (never secrets, URLs or provider internals). */
export const FAL_USER_MESSAGES = {
  failed: "Generation failed",
  keyRejected: "The fal API key was rejected",
  unknownEndpoint: "The model endpoint was not found",
  lost: "The provider no longer knows this request",
  expired: "The result expired before it could be saved",
  timedOut: "The generation timed out",
  outcomeUnknown:
    "The provider did not confirm the request; it was not sent again to avoid a second charge",
} as const;

export interface FalProviderOptions {
  /** The fal API key (`Authorization: Key …`). Never appears in errors. */
  key: string;
  /** Base fetch (default: global fetch). */
  fetch?: typeof fetch;
  /** Replaces `https://queue.fal.run` (tests: the fake's URL). */
  queueBaseUrl?: string;
  /** Replaces `https://rest.fal.ai` and `rest.alpha.fal.ai`; defaults to `queueBaseUrl` if set. */
  restBaseUrl?: string;
  /** Deadline for one call, body included. Default 30 s. */
  timeoutMs?: number;
  /** A 2xx result whose body is not JSON is retryable this many times, then fatal. Default 3. */
  maxMalformedResults?: number;
  /** Default wait when a 429 has no usable Retry-After. Default 5 s. */
  defaultRetryAfterMs?: number;
  /** The node's output ports for an endpoint, so media lands on the right port. */
  outputsFor?: (endpoint: string) => readonly MappablePort[] | undefined;
  /** `host:port` entries allowed in result media URLs despite a non-public literal IP. */
  allowMediaHosts?: string[];
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** 422 `detail: [{ msg }]` (or a string detail) → one user-safe line. */
function validationText(body: unknown): string {
  const detail = record(body).detail;
  const msgs = Array.isArray(detail)
    ? detail.map((d) => record(d).msg).filter((m): m is string => typeof m === "string")
    : typeof detail === "string"
      ? [detail]
      : [];
  return msgs.length > 0 ? msgs.join("; ").slice(0, 500) : FAL_USER_MESSAGES.failed;
}

function mapLogs(logs: unknown): JobLog[] {
  if (!Array.isArray(logs)) return [];
  return logs.flatMap((entry) => {
    const e = record(entry);
    if (typeof e.message !== "string") return [];
    const log: JobLog = { message: e.message };
    if (typeof e.level === "string") log.level = e.level;
    if (typeof e.timestamp === "string") log.timestamp = e.timestamp;
    return [log];
  });
}

/** `fal-ai/flux/dev` → `fal-ai/flux`; namespaced ids (`workflows/…`, `comfy/…`) keep 3. */
function appPath(endpoint: string): string {
  const parts = endpoint.split("/");
  return parts.slice(0, parts[0] === "workflows" || parts[0] === "comfy" ? 3 : 2).join("/");
}

function checkIds(endpoint: string, requestId?: string): void {
  const segments = endpoint.split("/");
  if (segments.length < 2 || segments.some((s) => !/^[\w.-]+$/.test(s) || /^\.+$/.test(s))) {
    throw fatal("fal: invalid endpoint id", FAL_USER_MESSAGES.unknownEndpoint);
  }
  if (requestId !== undefined && !/^[\w-]{1,128}$/.test(requestId)) {
    throw fatal("fal: invalid request id", FAL_USER_MESSAGES.lost);
  }
}

/**
 * Creates the fal adapter. Error kinds: 429 → `rate_limited` (Retry-After); 5xx, timeouts and
 * network errors → `retryable` for status/cancel; a 504 with `x-fal-request-timeout-type: user`
 * → `fatal`; submit failures after sending → {@link SubmitOutcomeUnknownError}; a non-2xx
 * result → `fatal` (422 → the detail messages), except a 5xx without a JSON body (a gateway,
 * not the model: `retryable`); malformed JSON → `retryable` for status, and for a result
 * `retryable` until `maxMalformedResults`, then `fatal`.
 */
export function createFalProvider(options: FalProviderOptions): GenerationProvider {
  const baseFetch = options.fetch ?? fetch;
  const queueBase = (options.queueBaseUrl ?? QUEUE_HOST).replace(/\/+$/, "");
  const restBase = (options.restBaseUrl ?? options.queueBaseUrl ?? "https://rest.fal.ai").replace(
    /\/+$/,
    "",
  );
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxMalformed = options.maxMalformedResults ?? 3;
  const fallbackWait = options.defaultRetryAfterMs ?? 5_000;
  const allowHosts = new Set(options.allowMediaHosts ?? []);
  const malformedCounts = new Map<string, number>();
  const answersBySignal = new WeakMap<AbortSignal, Response>();

  const rewrite = (url: string): string => {
    if (url.startsWith(QUEUE_HOST)) return queueBase + url.slice(QUEUE_HOST.length);
    const rest = REST_HOSTS.find((host) => url.startsWith(host));
    return rest ? restBase + url.slice(rest.length) : url;
  };
  const rewritingFetch: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const target = input instanceof Request ? new Request(rewrite(url), input) : rewrite(url);
    const response = await baseFetch(target, init);
    if (init?.signal) answersBySignal.set(init.signal, response);
    return response;
  };
  const client = createFalClient({
    credentials: options.key,
    fetch: rewritingFetch,
    retry: { maxRetries: 0 },
  });

  const headers = { Authorization: `Key ${options.key}`, Accept: "application/json" };
  const exchange = (method: string, url: string, body?: unknown) =>
    exchangeOnce(rewritingFetch, url, jsonInit(method, headers, body), timeoutMs);

  /** The shared HTTP-status → ProviderError rules of status, result and cancel. */
  function readError(what: string, status: number, headers?: Headers): ProviderError {
    const message = `${what}: HTTP ${status}`;
    if (status === 504 && headers?.get("x-fal-request-timeout-type") === "user") {
      return fatal(message, FAL_USER_MESSAGES.timedOut, status);
    }
    const transient = transientError(message, status, retryAfterMs(headers, fallbackWait));
    if (transient) return transient;
    const userMessage =
      status === 401 || status === 403
        ? FAL_USER_MESSAGES.keyRejected
        : status === 404
          ? FAL_USER_MESSAGES.lost
          : FAL_USER_MESSAGES.failed;
    return fatal(message, userMessage, status);
  }

  return {
    id: "fal",
    buildInput: buildFalInput,

    async submit(request: SubmitRequest) {
      checkIds(request.endpoint);
      const what = `fal submit ${request.endpoint}`;
      const query = request.webhookUrl
        ? `?fal_webhook=${encodeURIComponent(request.webhookUrl)}`
        : "";
      const url = `${QUEUE_HOST}/${request.endpoint}${query}`;
      const answer = await exchange("POST", url, request.input);
      if (typeof answer === "string") {
        throw submitPhaseError(what, answer, FAL_USER_MESSAGES.outcomeUnknown);
      }
      const { status, headers } = answer;
      const json = parseJson(answer.text);
      if (status >= 200 && status < 300) {
        const requestId = json.ok ? record(json.value).request_id : undefined;
        if (typeof requestId === "string" && requestId !== "") return { requestId };
        throw new SubmitOutcomeUnknownError(`${what}: no request_id`, "bad_answer", {
          userMessage: FAL_USER_MESSAGES.outcomeUnknown,
          status,
        });
      }
      if (status === 422) {
        throw fatal(`${what}: HTTP 422`, validationText(json.ok ? json.value : undefined), status);
      }
      if (status === 404) throw fatal(`${what}: HTTP 404`, FAL_USER_MESSAGES.unknownEndpoint, 404);
      // 429 and other 4xx: fal refused it, so no job exists; a user timeout never started.
      if (status < 500 || headers.get("x-fal-request-timeout-type") === "user") {
        throw readError(what, status, headers);
      }
      throw new SubmitOutcomeUnknownError(`${what}: HTTP ${status}`, "server_error", {
        userMessage: FAL_USER_MESSAGES.outcomeUnknown,
        status,
      });
    },

    async status(endpoint, requestId): Promise<ProviderStatus> {
      checkIds(endpoint, requestId);
      const what = `fal status ${endpoint} ${requestId}`;
      const url = `${QUEUE_HOST}/${appPath(endpoint)}/requests/${requestId}/status?logs=1`;
      const answer = await exchange("GET", url);
      if (typeof answer === "string") throw transportError(what, answer);
      if (answer.status !== 200 && answer.status !== 202) {
        throw readError(what, answer.status, answer.headers);
      }
      const json = parseJson(answer.text);
      if (!json.ok) throw new ProviderError(`${what}: malformed JSON`, "retryable");
      const body = record(json.value);
      const logs = mapLogs(body.logs);
      const base = { queuePosition: null, progress: null, logs };
      if (body.status === "IN_QUEUE") {
        const position = body.queue_position;
        return {
          ...base,
          status: "IN_QUEUE",
          queuePosition: typeof position === "number" ? position : null,
        };
      }
      if (body.status === "COMPLETED") {
        // fal reports infrastructure failures as COMPLETED carrying `error`/`error_type`.
        if (body.error_type !== undefined || body.error !== undefined) {
          return { ...base, status: "FAILED", error: FAL_USER_MESSAGES.failed };
        }
        return { ...base, status: "COMPLETED" };
      }
      // IN_PROGRESS, and any status value we do not know: not final (the worker has a deadline).
      return { ...base, status: "IN_PROGRESS" };
    },

    async result(endpoint, requestId, context) {
      checkIds(endpoint, requestId);
      const what = `fal result ${endpoint} ${requestId}`;
      const url = `${QUEUE_HOST}/${appPath(endpoint)}/requests/${requestId}`;
      const answer = await exchange("GET", url);
      if (typeof answer === "string") throw transportError(what, answer);
      const { status, headers } = answer;
      const json = parseJson(answer.text);
      if (status < 200 || status >= 300) {
        if (status === 429 || (status >= 500 && !json.ok)) throw readError(what, status, headers);
        const userMessage =
          status === 422
            ? validationText(json.ok ? json.value : undefined)
            : status === 404
              ? FAL_USER_MESSAGES.expired
              : status === 504 && headers.get("x-fal-request-timeout-type") === "user"
                ? FAL_USER_MESSAGES.timedOut
                : FAL_USER_MESSAGES.failed;
        throw fatal(`${what}: HTTP ${status}`, userMessage, status);
      }
      if (!json.ok) {
        const count = (malformedCounts.get(requestId) ?? 0) + 1;
        malformedCounts.set(requestId, count);
        if (count < maxMalformed) throw new ProviderError(`${what}: malformed JSON`, "retryable");
        malformedCounts.delete(requestId);
        throw fatal(`${what}: malformed JSON ${count} times`, FAL_USER_MESSAGES.failed);
      }
      malformedCounts.delete(requestId);
      const mapped = mapFalResult(json.value, context?.outputs ?? options.outputsFor?.(endpoint));
      if (mapped.media.some((m) => m.url !== undefined && !isAllowedMediaUrl(m.url, allowHosts))) {
        throw fatal(`${what}: media URL is not a public http(s) URL`, FAL_USER_MESSAGES.failed);
      }
      return mapped;
    },

    async cancel(endpoint, requestId) {
      checkIds(endpoint, requestId);
      const what = `fal cancel ${endpoint} ${requestId}`;
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        await client.queue.cancel(endpoint, { requestId, abortSignal: signal });
      } catch (err) {
        if (!(err instanceof ApiError)) throw transportError(what, phaseOf(err, signal));
        // Nothing left to cancel is not a failure of the cancel.
        const answer = record(err.body).status;
        if (answer === "ALREADY_COMPLETED" || answer === "NOT_FOUND") return;
        throw readError(what, err.status, answersBySignal.get(signal)?.headers);
      }
    },
  };
}
