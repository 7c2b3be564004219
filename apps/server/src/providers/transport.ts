import { randomUUID } from "node:crypto";
import { ProviderError, SubmitOutcomeUnknownError } from "./provider.ts";
import { OutboundFetchError } from "./safe-fetch.ts";

/*
 * What the vendor adapters (fal, runway, luma, google, openai, elevenlabs) share about talking
 * HTTP: timed exchanges whose transport failures come back as a phase, Retry-After, and the
 * ProviderErrors every adapter builds the same way. Vendor rules stay in the adapters.
 */

/** The options of a plain-fetch adapter (Runway, Luma). */
export interface HttpAdapterOptions {
  /** The API key. Never appears in errors. */
  key: string;
  /** Replaces the vendor's API base URL (tests: the fake's URL). */
  baseUrl?: string;
  /** Default: global fetch. */
  fetch?: typeof fetch;
  /** Deadline for one call, body included. Default 30 s. */
  timeoutMs?: number;
  /** `host:port` entries allowed in output URLs despite a non-public literal IP (tests). */
  allowMediaHosts?: string[];
  /** Wait when a 429 has no usable Retry-After. Default 5 s. */
  defaultRetryAfterMs?: number;
}

/** Where a transport failure happened: before anything was sent, at the deadline, or mid-way. */
export type Phase = "not_sent" | "timeout" | "lost";
/** A whole HTTP answer, body read as text. */
export type Answer = { status: number; headers: Headers; text: string };

/** Lookup and connect failures: they prove nothing reached the vendor. */
export const NOT_SENT_LOOKUP = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);
/** {@link NOT_SENT_LOOKUP} plus undici's connect timeout. */
export const NOT_SENT_CODES = new Set([...NOT_SENT_LOOKUP, "UND_ERR_CONNECT_TIMEOUT"]);

/** The phase of a fetch failure: `signal` aborted, or a not-sent code anywhere in the causes. */
export function phaseOf(
  err: unknown,
  signal: AbortSignal,
  notSent: ReadonlySet<string> = NOT_SENT_CODES,
): Phase {
  if (signal.aborted) return "timeout";
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && notSent.has(code)) return "not_sent";
  }
  return "lost";
}

async function timed<T>(
  fetchImpl: typeof fetch,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  read: (response: Response) => Promise<T>,
  notSent?: ReadonlySet<string>,
): Promise<({ status: number; headers: Headers } & T) | Phase> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetchImpl(url, { ...init, signal });
    return { status: response.status, headers: response.headers, ...(await read(response)) };
  } catch (err) {
    return phaseOf(err, signal, notSent);
  }
}

/** One HTTP exchange with its own deadline (body included); transport failures → a phase. */
export function exchange(
  fetchImpl: typeof fetch,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  notSent?: ReadonlySet<string>,
): Promise<Answer | Phase> {
  const read = async (r: Response) => ({ text: await r.text() });
  return timed(fetchImpl, url, init, timeoutMs, read, notSent);
}

/** {@link exchange} with the body as bytes. */
export function exchangeBytes(fetchImpl: typeof fetch, url: string, init: RequestInit, ms: number) {
  const read = async (r: Response) => ({ bytes: new Uint8Array(await r.arrayBuffer()) });
  return timed(fetchImpl, url, init, ms, read);
}

/** JSON.parse that answers `undefined` instead of throwing (JSON never holds `undefined`). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** An object's fields (arrays included), or `{}` for anything else. */
export const record = (v: unknown): Record<string, unknown> =>
  typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {};

/** A request init with `headers`, plus a JSON body and its Content-Type when there is one. */
export function jsonInit(method: string, headers: Record<string, string>, body?: unknown) {
  if (body === undefined) return { method, headers };
  const withType = { ...headers, "Content-Type": "application/json" };
  return { method, headers: withType, body: JSON.stringify(body) };
}

/** `Retry-After` (seconds or an HTTP date) → ms, or undefined when absent or unreadable. */
export function retryAfterHeader(headers: Headers | undefined): number | undefined {
  const value = headers?.get("retry-after")?.trim();
  if (!value) return undefined;
  const ms = /^\d+(\.\d+)?$/.test(value) ? Number(value) * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.max(0, Math.round(ms)) : undefined;
}

/** Retry-After as seconds or an HTTP date → ms, else the fallback. */
export const retryAfterMs = (headers: Headers | undefined, fallbackMs: number): number =>
  retryAfterHeader(headers) ?? fallbackMs;

/** A `fatal` ProviderError with a user-safe message. */
export const fatalError = (message: string, userMessage: string, status?: number) =>
  new ProviderError(message, "fatal", { userMessage, ...(status ? { status } : {}) });

/** 429 → `rate_limited` after `waitMs`, 5xx → `retryable`, other statuses → undefined. */
export function transientError(message: string, status: number, waitMs: number) {
  if (status === 429)
    return new ProviderError(message, "rate_limited", { status, retryAfterMs: waitMs });
  return status >= 500 ? new ProviderError(message, "retryable", { status }) : undefined;
}

/** A transport failure of a call that may be repeated: `retryable`. */
export const transportError = (what: string, phase: Phase) =>
  new ProviderError(`${what}: ${phase === "timeout" ? "timeout" : "network error"}`, "retryable");

/** A paid call that may or may not have started a job. */
export const outcomeUnknown = (
  what: string,
  reason: SubmitOutcomeUnknownError["reason"],
  userMessage: string,
  status?: number,
) =>
  new SubmitOutcomeUnknownError(`${what}: ${reason}`, reason, {
    userMessage,
    ...(status ? { status } : {}),
  });

/** A paid call's transport failure: nothing sent → `retryable`, else its outcome is unknown. */
export const submitPhaseError = (what: string, phase: Phase, userMessage: string) =>
  phase === "not_sent"
    ? transportError(what, phase)
    : outcomeUnknown(what, phase === "timeout" ? "timeout" : "connection_lost", userMessage);

/**
 * A vendor's own text when it is plain enough to show: trimmed (`collapse`: whitespace runs
 * made one space), not empty, at most `max` characters, without the key, not matching `reject`.
 */
export function plainMessage(
  value: unknown,
  key: string,
  rule: { max: number; reject: RegExp; collapse?: boolean },
): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = (rule.collapse ? value.replace(/\s+/g, " ") : value).trim();
  if (text === "" || text.length > rule.max || (key !== "" && text.includes(key))) return undefined;
  return rule.reject.test(text) ? undefined : text;
}

/**
 * Keeps a synchronous answer under a new `<prefix>-<uuid>` id, first dropping expired entries
 * and, while the store is full, the oldest ones.
 */
export function keepAnswer<E extends { at: number }>(
  store: Map<string, E>,
  prefix: string,
  entry: Omit<E, "at">,
  limits: { max: number; ttlMs: number },
): string {
  const now = Date.now();
  for (const [id, old] of store) {
    if (store.size >= limits.max || now - old.at > limits.ttlMs) store.delete(id);
  }
  const requestId = `${prefix}-${randomUUID()}`;
  store.set(requestId, { ...entry, at: now } as E);
  return requestId;
}

/**
 * An input download failure (before anything was sent to the vendor) → a ProviderError:
 * timeouts, network errors and 429/5xx `retryable`, the rest `fatal`. ProviderErrors pass.
 */
export function inputFetchError(
  what: string,
  err: unknown,
  messages: { tooLarge: string; input: string },
): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = err instanceof OutboundFetchError ? err : null;
  const status = e?.status ?? 0;
  const label = `${what}: ${e ? `${e.code} ${e.status ?? ""}` : "failed"}`.trim();
  if (!e || e.code === "timeout" || e.code === "network" || status === 429 || status >= 500) {
    return new ProviderError(label, "retryable");
  }
  return fatalError(label, e.code === "too_large" ? messages.tooLarge : messages.input);
}
