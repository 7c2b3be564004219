import { isAllowedMediaUrl } from "../fal/map-result.ts";
import type {
  GenerationProvider,
  ProviderStatus,
  ResultContext,
  ResultMedia,
} from "../provider.ts";
import { ProviderError, type SubmitOutcomeUnknownError } from "../provider.ts";
import {
  type Answer,
  exchange as exchangeOnce,
  fatalError as fatal,
  type HttpAdapterOptions,
  jsonInit,
  NOT_SENT_LOOKUP,
  outcomeUnknown,
  parseJson,
  record,
  retryAfterMs,
  submitPhaseError,
  transientError,
  transportError,
} from "../transport.ts";
import {
  buildLumaInput,
  checkEndpoint,
  ID_PATTERN,
  LUMA_USER_MESSAGES,
  str,
} from "./luma-input.ts";

export {
  buildLumaInput,
  LUMA_ENDPOINTS,
  LUMA_USER_MESSAGES,
  parseLumaCallback,
} from "./luma-input.ts";

/*
 * Luma Dream Machine behind `GenerationProvider` (reference/providers.md, Luma section;
 * catalogue/video.md §15–17 and image-and-text.md §12), over plain fetch: one request per
 * call and no hidden retries, because our job worker owns retries and a retried create could
 * start a second paid generation. Luma has no queue position, progress or logs.
 */

/** `key` goes in `Authorization: Bearer …`; `baseUrl` defaults to Luma's `…/dream-machine/v1`. */
export type LumaProviderOptions = HttpAdapterOptions;

/** User text for fatal 4xx answers (400 on create uses Luma's own `detail`). */
const FATAL_TEXT: Record<number, string> = {
  401: LUMA_USER_MESSAGES.keyRejected,
  403: LUMA_USER_MESSAGES.refused,
  404: LUMA_USER_MESSAGES.lost,
};
function checkId(id: string): void {
  if (!ID_PATTERN.test(id)) throw fatal("luma: invalid generation id", LUMA_USER_MESSAGES.lost);
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

  const headers = { Authorization: `Bearer ${options.key}`, Accept: "application/json" };
  const init = (method: string, body?: unknown) => jsonInit(method, headers, body);
  // Luma's not-sent set has never included undici's connect timeout; kept so.
  const exchange = (method: string, path: string, body?: unknown) =>
    exchangeOnce(doFetch, `${base}/${path}`, init(method, body), timeoutMs, NOT_SENT_LOOKUP);

  function httpError(what: string, { status, headers }: Answer): ProviderError {
    const message = `${what}: HTTP ${status}`;
    const userMessage = FATAL_TEXT[status] ?? LUMA_USER_MESSAGES.failed;
    return (
      transientError(message, status, retryAfterMs(headers, fallbackWait)) ??
      fatal(message, userMessage, status)
    );
  }

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
    outcomeUnknown(what, reason, LUMA_USER_MESSAGES.outcomeUnknown, status);

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
      if (typeof answer === "string") {
        throw submitPhaseError(what, answer, LUMA_USER_MESSAGES.outcomeUnknown);
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
