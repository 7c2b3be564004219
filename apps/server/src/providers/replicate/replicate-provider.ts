import { isAllowedMediaUrl } from "../fal/map-result.ts";
import type {
  GenerationProvider,
  JobLog,
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
  outcomeUnknown,
  parseJson,
  record,
  retryAfterMs,
  submitPhaseError,
  transientError,
  transportError,
} from "../transport.ts";
import {
  buildReplicateInput,
  checkModel,
  ID_PATTERN,
  progressFromLogs,
  REPLICATE_MODELS,
  REPLICATE_USER_MESSAGES,
  str,
} from "./replicate-input.ts";

export {
  buildReplicateInput,
  REPLICATE_MODELS,
  REPLICATE_USER_MESSAGES,
} from "./replicate-input.ts";

/*
 * Replicate's predictions API behind `GenerationProvider`, over plain fetch: an official
 * model is run with POST /models/{owner}/{name}/predictions, read with GET
 * /predictions/{id} and cancelled with POST /predictions/{id}/cancel. One request per call
 * and no hidden retries: our job worker owns retries, and Replicate documents no idempotency
 * key, so a create whose answer was lost is never sent again. Statuses: starting →
 * IN_QUEUE, processing → IN_PROGRESS, succeeded / failed / canceled → final. Replicate has
 * no queue position or progress field: progress is read from tqdm percentages in `logs`.
 */

/** `key` (REPLICATE_API_TOKEN) goes in `Authorization: Bearer …`; `baseUrl` defaults to `…/v1`. */
export type ReplicateProviderOptions = HttpAdapterOptions;

export const REPLICATE_BASE_URL = "https://api.replicate.com/v1";
/** The log lines a status read reports (the newest). */
const LOG_LINES = 50;

/** User text for fatal 4xx answers (422 on create uses Replicate's own `detail`). */
const FATAL_TEXT: Record<number, string> = {
  401: REPLICATE_USER_MESSAGES.keyRejected,
  402: REPLICATE_USER_MESSAGES.refused,
  403: REPLICATE_USER_MESSAGES.refused,
  404: REPLICATE_USER_MESSAGES.lost,
};
function checkId(id: string): void {
  if (!ID_PATTERN.test(id))
    throw fatal("replicate: invalid prediction id", REPLICATE_USER_MESSAGES.lost);
}

/**
 * Creates the Replicate adapter. Errors: 429 → `rate_limited` (Retry-After); 5xx, timeouts,
 * network errors and malformed JSON → `retryable` on reads; a create that may have started a
 * prediction (timeout, dropped connection, 5xx, a 2xx without an id) →
 * {@link SubmitOutcomeUnknownError}; refused connection → `retryable`; other 4xx → `fatal`
 * (401 token rejected, 422 Replicate's `detail`).
 */
export function createReplicateProvider(options: ReplicateProviderOptions): GenerationProvider {
  const doFetch = options.fetch ?? fetch;
  const base = (options.baseUrl ?? REPLICATE_BASE_URL).replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 30_000;
  const fallbackWait = options.defaultRetryAfterMs ?? 5_000;
  const allowHosts = new Set(options.allowMediaHosts ?? []);
  // Replicate's texts (a model's error) are shown to users: never let the token through.
  const hide = (text: string) => (options.key ? text.split(options.key).join("***") : text);
  const safe = (text: string) =>
    hide(text.replace(/\p{Cc}+/gu, " "))
      .trim()
      .slice(0, 300);

  const headers = { Authorization: `Bearer ${options.key}`, Accept: "application/json" };
  const exchange = (method: string, path: string, body?: unknown) =>
    exchangeOnce(doFetch, `${base}/${path}`, jsonInit(method, headers, body), timeoutMs);

  function httpError(what: string, { status, headers }: Answer): ProviderError {
    const message = `${what}: HTTP ${status}`;
    const userMessage = FATAL_TEXT[status] ?? REPLICATE_USER_MESSAGES.failed;
    return (
      transientError(message, status, retryAfterMs(headers, fallbackWait)) ??
      fatal(message, userMessage, status)
    );
  }

  /** GET /predictions/{id} → the prediction; every failure is a ProviderError. */
  async function read(what: string, id: string): Promise<Record<string, unknown>> {
    checkId(id);
    const answer = await exchange("GET", `predictions/${id}`);
    if (typeof answer === "string") throw transportError(what, answer);
    if (answer.status !== 200) throw httpError(what, answer);
    const json = parseJson(answer.text);
    if (json === undefined) throw new ProviderError(`${what}: malformed JSON`, "retryable");
    return record(json);
  }

  /** The prediction's `error` made safe to show, else a generic text. */
  const reasonOf = (p: Record<string, unknown>) =>
    safe(str(p.error) ?? "").replace(/\s+/g, " ") || REPLICATE_USER_MESSAGES.failed;

  const logsOf = (p: Record<string, unknown>): JobLog[] =>
    (str(p.logs) ?? "")
      .split(/\r?\n|\r/)
      .map((line) => safe(line))
      .filter((line) => line !== "")
      .slice(-LOG_LINES)
      .map((message) => ({ message }));

  type Unknown = SubmitOutcomeUnknownError["reason"];
  const unknownOutcome = (what: string, reason: Unknown, status?: number) =>
    outcomeUnknown(what, reason, REPLICATE_USER_MESSAGES.outcomeUnknown, status);

  return {
    id: "replicate",
    buildInput: buildReplicateInput,

    async submit(request) {
      const model = checkModel(request.endpoint);
      const what = `replicate submit ${model}`;
      const body = request.webhookUrl
        ? {
            input: request.input,
            webhook: request.webhookUrl,
            // `start` is always sent too; logs and outputs are read when polling.
            webhook_events_filter: ["completed"],
          }
        : { input: request.input };
      const answer = await exchange("POST", `models/${model}/predictions`, body);
      if (typeof answer === "string") {
        throw submitPhaseError(what, answer, REPLICATE_USER_MESSAGES.outcomeUnknown);
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
        // Replicate's validation text (`detail`) helps the user fix the node.
        const detail = str(json.detail);
        const userMessage = (detail && safe(detail)) || REPLICATE_USER_MESSAGES.failed;
        throw fatal(`${what}: HTTP ${status}`, userMessage, status);
      }
      if (status === 404)
        throw fatal(`${what}: HTTP 404`, REPLICATE_USER_MESSAGES.unknownEndpoint, 404);
      throw httpError(what, answer); // 429 and other 4xx: refused, no prediction exists.
    },

    async status(_endpoint, requestId): Promise<ProviderStatus> {
      const p = await read(`replicate status ${requestId}`, requestId);
      const logs = logsOf(p);
      const progress = progressFromLogs(str(p.logs));
      const base = { queuePosition: null, progress, logs };
      switch (p.status) {
        case "starting":
          return { ...base, status: "IN_QUEUE" };
        case "succeeded":
          return { ...base, status: "COMPLETED" };
        case "failed":
          return { ...base, status: "FAILED", error: reasonOf(p) };
        case "canceled":
          return { ...base, status: "CANCELLED" };
        default: // processing, and statuses we do not know: not final (the worker has a deadline).
          return { ...base, status: "IN_PROGRESS" };
      }
    },

    async result(endpoint, requestId, context?: ResultContext) {
      const what = `replicate result ${requestId}`;
      const p = await read(what, requestId);
      if (p.status === "failed") throw fatal(`${what}: failed`, reasonOf(p));
      if (p.status === "canceled")
        throw fatal(`${what}: canceled`, REPLICATE_USER_MESSAGES.canceled);
      if (p.status !== "succeeded") throw new ProviderError(`${what}: not succeeded`, "retryable");
      const kind = REPLICATE_MODELS[checkModel(endpoint)];
      const ports = context?.outputs;
      const output = ports
        ? (ports.find((port) => port.id === kind) ?? ports.find((port) => port.type === kind))?.id
        : kind;
      // These models answer one URI; a list (other models' shape) gives its first.
      const url = [p.output].flat().find((u): u is string => typeof u === "string" && u !== "");
      if (!url || !output)
        throw fatal(`${what}: no output for the node`, REPLICATE_USER_MESSAGES.failed);
      if (!isAllowedMediaUrl(url, allowHosts)) {
        throw fatal(
          `${what}: output URL is not a public http(s) URL`,
          REPLICATE_USER_MESSAGES.failed,
        );
      }
      const media: ResultMedia[] = [{ output, url }];
      return { raw: p, media };
    },

    async cancel(_endpoint, requestId) {
      checkId(requestId);
      const what = `replicate cancel ${requestId}`;
      const answer = await exchange("POST", `predictions/${requestId}/cancel`);
      if (typeof answer === "string") throw transportError(what, answer);
      // Already finished or gone is not a failure of the cancel.
      if ((answer.status >= 200 && answer.status < 300) || answer.status === 404) return;
      throw httpError(what, answer);
    },
  };
}
