import { isAllowedMediaUrl } from "../fal/map-result.ts";
import type { GenerationProvider, JobStatus, NodeRun, ProviderStatus } from "../provider.ts";
import { ProviderError, type ResultMedia } from "../provider.ts";
import {
  type Answer,
  exchange as exchangeOnce,
  fatalError as fatal,
  type HttpAdapterOptions,
  jsonInit,
  outcomeUnknown,
  plainMessage,
  retryAfterMs,
  submitPhaseError,
  transientError,
  transportError,
} from "../transport.ts";

/*
 * Runway behind `GenerationProvider` (reference/providers.md, Runway section), with plain
 * `fetch`: create a task (`POST /v1/…` → `{ id }`), read it (`GET /v1/tasks/{id}`), delete it.
 * No retries here: the job worker owns retries, and a retried create could be a second paid
 * task (Runway has no idempotency key).
 */

/** Runway asks not to poll one task more often than every 5 s; the engine honours this. */
export const RUNWAY_MIN_POLL_MS = 5_000;
/** The API version every request pins (`X-Runway-Version`). */
export const RUNWAY_API_VERSION = "2024-11-06";

/** Messages shown to users (never secrets, URLs or provider internals). */
export const RUNWAY_USER_MESSAGES = {
  failed: "Generation failed",
  keyRejected: "The Runway API key was rejected",
  unknownEndpoint: "The model endpoint was not found",
  lost: "The provider no longer knows this request",
  cancelled: "The generation was cancelled",
  missingInput: "A required input is not connected",
  throttled: "Waiting for other Runway tasks of this account to finish",
  outcomeUnknown:
    "The provider did not confirm the request; it was not sent again to avoid a second charge",
} as const;
const M = RUNWAY_USER_MESSAGES;

/** `key` goes in `Authorization: Bearer …`; `baseUrl` defaults to `https://api.dev.runwayml.com`. */
export type RunwayProviderOptions = HttpAdapterOptions;

type Json = Record<string, unknown>;

const ENDPOINT_RE = /^v1\/[a-z0-9_]+$/;
const TASK_ID_RE = /^[\w-]{1,128}$/;
const STATES = new Map<unknown, JobStatus>([
  ["PENDING", "IN_QUEUE"],
  ["THROTTLED", "IN_QUEUE"],
  ["SUCCEEDED", "COMPLETED"],
  ["FAILED", "FAILED"],
  ["CANCELLED", "CANCELLED"],
]);
const is2xx = (status: number) => status >= 200 && status < 300;

function parseJson(text: string): Json | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

/**
 * Runway's own text (a 400's `error`, a task's `failure`) when it is a plain sentence: no
 * URLs (ours may carry signed tokens), markup, JSON, bare codes like `SAFETY.INPUT.TEXT`, or
 * the key. Otherwise null, and the caller falls back to a generic message.
 */
const PLAIN = { max: 500, collapse: true, reject: /:\/\/|[<>{}[\]]|^[A-Z0-9_.:-]+$/ };
const plainText = (value: unknown, key: string) => plainMessage(value, key, PLAIN);

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const list = (value: string | string[] | undefined) =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
const str = (value: unknown, fallback: string) => (typeof value === "string" ? value : fallback);
const optional = (key: string, value: unknown) => (value === undefined ? {} : { [key]: value });

/** Runway's request body for one of our Runway nodes; absent optionals are left out. */
function buildRunwayInput(run: NodeRun): Record<string, unknown> {
  const { inputs, params } = run;
  const connected = first(inputs.prompt);
  const typed = connected?.trim() ? connected : params.prompt;
  const promptText = typeof typed === "string" && typed.trim() !== "" ? typed : undefined;
  const shared = {
    ...optional("promptText", promptText),
    ...optional("seed", typeof params.seed === "number" ? params.seed : undefined),
    ...(typeof params.publicFigureThreshold === "string"
      ? { contentModeration: { publicFigureThreshold: params.publicFigureThreshold } }
      : {}),
  };
  const required = (port: string): string => {
    const url = first(inputs[port]);
    if (url) return url;
    throw fatal(`runway ${run.nodeType}: input ${port} missing`, M.missingInput);
  };
  switch (run.nodeType) {
    case "runway-video":
      return {
        model: str(params.model, "gen4_turbo"),
        promptImage: required("image"),
        ratio: str(params.ratio, "1280:720"),
        duration: typeof params.duration === "number" ? params.duration : 5,
        ...shared,
      };
    case "runway-aleph": {
      const model = str(params.model, "aleph2");
      const refs = list(inputs.referenceImages).slice(0, 1);
      // gen4_aleph takes `references`; aleph2 dropped them for timed `keyframes`, so the one
      // reference image guides the start of the video there.
      const guidance =
        refs.length === 0
          ? {}
          : model === "gen4_aleph"
            ? { references: refs.map((uri) => ({ type: "image", uri })) }
            : { keyframes: refs.map((uri) => ({ at: 0, uri })) };
      return {
        model,
        videoUri: required("video1"),
        ratio: str(params.ratio, "1280:720"),
        ...guidance,
        ...shared,
      };
    }
    case "runway-image": {
      const refs = list(inputs.image);
      return {
        model: str(params.model, "gen4_image"),
        ratio: str(params.ratio, "1920:1080"),
        ...(refs.length > 0 ? { referenceImages: refs.map((uri) => ({ uri })) } : {}),
        ...shared,
      };
    }
    default:
      throw fatal(`runway: unknown node type ${run.nodeType}`, M.unknownEndpoint);
  }
}

function checkIds(endpoint: string, taskId?: string): void {
  if (!ENDPOINT_RE.test(endpoint)) {
    throw fatal("runway: invalid endpoint id", M.unknownEndpoint);
  }
  if (taskId !== undefined && !TASK_ID_RE.test(taskId)) {
    throw fatal("runway: invalid task id", M.lost);
  }
}

/**
 * Creates the Runway adapter. Error kinds: 429 → `rate_limited` (Retry-After); 5xx, timeouts,
 * network errors and malformed answers → `retryable` for status/result/cancel; submit failures
 * after sending (timeout, dropped connection, 5xx, 2xx without an id) →
 * {@link SubmitOutcomeUnknownError}; a refused connection → `retryable`; other 4xx → `fatal`
 * with a safe user message. FAILED tasks carry Runway's `failure` text when it is plain.
 */
export function createRunwayProvider(options: RunwayProviderOptions): GenerationProvider {
  const doFetch = options.fetch ?? fetch;
  const base = (options.baseUrl ?? "https://api.dev.runwayml.com").replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 30_000;
  const fallbackWait = options.defaultRetryAfterMs ?? 5_000;
  const allowHosts = new Set(options.allowMediaHosts ?? []);
  const failureText = (task: Json) => plainText(task.failure, options.key) ?? M.failed;

  const headers = {
    Authorization: `Bearer ${options.key}`,
    "X-Runway-Version": RUNWAY_API_VERSION,
    Accept: "application/json",
  };
  const exchange = (method: string, path: string, body?: unknown) =>
    exchangeOnce(doFetch, `${base}${path}`, jsonInit(method, headers, body), timeoutMs);

  /** HTTP status → ProviderError; `on404` is what a 404 means for this call. */
  function httpError(what: string, { status, headers }: Answer, on404: string): ProviderError {
    const message = `${what}: HTTP ${status}`;
    const transient = transientError(message, status, retryAfterMs(headers, fallbackWait));
    if (transient) return transient;
    const text =
      status === 401 || status === 403 ? M.keyRejected : status === 404 ? on404 : M.failed;
    return fatal(message, text, status);
  }

  async function readTask(what: string, taskId: string): Promise<Json> {
    const answer = await exchange("GET", `/v1/tasks/${taskId}`);
    if (typeof answer === "string") throw transportError(what, answer);
    if (!is2xx(answer.status)) throw httpError(what, answer, M.lost);
    const task = parseJson(answer.text);
    if (!task) throw new ProviderError(`${what}: malformed JSON`, "retryable");
    return task;
  }

  return {
    id: "runway",
    buildInput: buildRunwayInput,

    async submit(request) {
      checkIds(request.endpoint);
      const what = `runway submit ${request.endpoint}`;
      const answer = await exchange("POST", `/${request.endpoint}`, request.input);
      if (typeof answer === "string") throw submitPhaseError(what, answer, M.outcomeUnknown);
      const unknown = (reason: "bad_answer" | "server_error", status: number) =>
        outcomeUnknown(what, reason, M.outcomeUnknown, status);
      const { status } = answer;
      const body = parseJson(answer.text);
      if (is2xx(status)) {
        const id = body?.id;
        if (typeof id === "string" && TASK_ID_RE.test(id)) return { requestId: id };
        throw unknown("bad_answer", status);
      }
      // 502/503 are documented as load shedding, but nothing proves the task was not made.
      if (status >= 500) throw unknown("server_error", status);
      // A 429 or other 4xx refused the request outright, so no task exists.
      const error = status === 400 ? plainText(body?.error, options.key) : null;
      if (error) throw fatal(`${what}: HTTP 400`, error, status);
      throw httpError(what, answer, M.unknownEndpoint);
    },

    async status(endpoint, requestId): Promise<ProviderStatus> {
      checkIds(endpoint, requestId);
      const task = await readTask(`runway status ${requestId}`, requestId);
      // RUNNING, and any status we do not know: not final (the worker has a deadline).
      const status = STATES.get(task.status) ?? "IN_PROGRESS";
      const p = task.progress;
      const progress =
        status === "IN_PROGRESS" && typeof p === "number" && Number.isFinite(p)
          ? Math.round(Math.min(1, Math.max(0, p)) * 100)
          : null;
      const logs = task.status === "THROTTLED" ? [{ message: M.throttled, level: "INFO" }] : [];
      return {
        status,
        queuePosition: null,
        progress,
        logs,
        ...(status === "FAILED" ? { error: failureText(task) } : {}),
      };
    },

    async result(endpoint, requestId, context) {
      checkIds(endpoint, requestId);
      const what = `runway result ${requestId}`;
      const task = await readTask(what, requestId);
      if (task.status === "FAILED") throw fatal(`${what}: task failed`, failureText(task));
      if (task.status === "CANCELLED") throw fatal(`${what}: task cancelled`, M.cancelled);
      if (task.status !== "SUCCEEDED") {
        throw new ProviderError(`${what}: task not finished`, "retryable");
      }
      const output = Array.isArray(task.output) ? task.output : [];
      const urls = output.filter((u): u is string => typeof u === "string" && u !== "");
      if (urls.length === 0) throw fatal(`${what}: no output`, M.failed);
      if (urls.some((url) => !isAllowedMediaUrl(url, allowHosts))) {
        throw fatal(`${what}: output URL is not a public http(s) URL`, M.failed);
      }
      // Runway answers bare URLs; the endpoint says what they are.
      const kind = endpoint.endsWith("_image") ? "image" : "video";
      const port = context ? context.outputs.find((p) => p.type === kind)?.id : kind;
      const media: ResultMedia[] = port ? urls.map((url) => ({ output: port, url })) : [];
      return { raw: task, media };
    },

    async cancel(endpoint, requestId) {
      checkIds(endpoint, requestId);
      const what = `runway cancel ${requestId}`;
      const answer = await exchange("DELETE", `/v1/tasks/${requestId}`);
      if (typeof answer === "string") throw transportError(what, answer);
      // 404: already deleted or never known; either way nothing is left to stop.
      if (is2xx(answer.status) || answer.status === 404) return;
      throw httpError(what, answer, M.lost);
    },
  };
}
