import { createHmac, timingSafeEqual } from "node:crypto";
import type { WebhookHeaders } from "../fal/webhook.ts";
import { parseJson, record } from "../transport.ts";
import { ID_PATTERN } from "./replicate-input.ts";

/*
 * Replicate webhook verification (replicate.com/docs/topics/webhooks/verify-webhook, the
 * Standard Webhooks scheme): headers `webhook-id`, `webhook-timestamp` (seconds) and
 * `webhook-signature` (space-separated `v1,<base64>` entries); each is an HMAC-SHA256 of
 * `${id}.${timestamp}.${raw body}` keyed with the signing secret (`whsec_<base64>`, one per
 * account, read from GET /v1/webhooks/default/secret). Replicate may resend a delivery (same
 * `webhook-id`): callers treat a verified webhook only as a hint to re-read the prediction.
 */

/** Why a webhook was refused; answer 401 for all but `secret_unavailable` (503: resend). */
export type ReplicateWebhookRejection =
  | "missing_headers"
  | "stale_timestamp"
  | "bad_signature"
  | "secret_unavailable"
  | "malformed_body";

export type ReplicateWebhookVerification =
  | { ok: true; predictionId: string; status: string }
  | { ok: false; reason: ReplicateWebhookRejection };

export interface ReplicateWebhookVerifierOptions {
  /** A fixed secret (REPLICATE_WEBHOOK_SECRET); otherwise `loadSecret` is asked. */
  secret?: string;
  /** Reads the account's secret (the API); null when it cannot be had now. */
  loadSecret?: () => Promise<string | null>;
  /** A signature the cached secret refuses re-reads it once if the cache is older. Default 60 s. */
  refetchAfterMs?: number;
  /** Allowed clock difference. Default 300 s. */
  toleranceSeconds?: number;
  /** Clock, in ms (tests). */
  now?: () => number;
}

export interface ReplicateWebhookVerifier {
  /** Checks one delivery; pass the raw body bytes exactly as received. */
  verify(
    headers: WebhookHeaders,
    rawBody: Uint8Array | string,
  ): Promise<ReplicateWebhookVerification>;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** The HMAC key of a `whsec_…` secret (the part after the prefix, base64-decoded). */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64");
}

/** The `v1,<base64>` signature of one delivery (the fake and tests sign with it). */
export function signReplicateWebhook(
  secret: string,
  id: string,
  timestamp: number | string,
  body: string | Uint8Array,
): string {
  const hmac = createHmac("sha256", secretKey(secret));
  hmac.update(`${id}.${timestamp}.`);
  hmac.update(typeof body === "string" ? Buffer.from(body) : body);
  return `v1,${hmac.digest("base64")}`;
}

function matches(secret: string, id: string, timestamp: string, body: Buffer, given: string) {
  const expected = Buffer.from(signReplicateWebhook(secret, id, timestamp, body).slice(3));
  return given.split(" ").some((entry) => {
    const [version, signature] = entry.split(",", 2);
    if (version !== "v1" || !signature) return false;
    const candidate = Buffer.from(signature);
    return candidate.length === expected.length && timingSafeEqual(candidate, expected);
  });
}

/** Creates a verifier with its own secret cache (share one per process). */
export function createReplicateWebhookVerifier(
  options: ReplicateWebhookVerifierOptions,
): ReplicateWebhookVerifier {
  const tolerance = options.toleranceSeconds ?? 300;
  const refetchAfter = options.refetchAfterMs ?? 60_000;
  const now = options.now ?? Date.now;
  let cache: { secret: string; at: number } | null = options.secret
    ? { secret: options.secret, at: Number.POSITIVE_INFINITY }
    : null;
  let loading: Promise<string | null> | null = null;

  /** The cached secret, or a fresh read (concurrent callers share one). */
  function secret(force: boolean): Promise<string | null> {
    if (cache && !force) return Promise.resolve(cache.secret);
    if (!options.loadSecret) return Promise.resolve(cache?.secret ?? null);
    loading ??= options
      .loadSecret()
      .catch(() => null)
      .then((loaded) => {
        if (loaded) cache = { secret: loaded, at: now() };
        return loaded ?? cache?.secret ?? null;
      })
      .finally(() => {
        loading = null;
      });
    return loading;
  }

  return {
    async verify(headers, rawBody) {
      const id = header(headers, "webhook-id");
      const timestamp = header(headers, "webhook-timestamp");
      const signature = header(headers, "webhook-signature");
      if (!id || !timestamp || !signature) return { ok: false, reason: "missing_headers" };
      if (!/^\d+$/.test(timestamp) || Math.abs(now() / 1000 - Number(timestamp)) > tolerance)
        return { ok: false, reason: "stale_timestamp" };
      const body = Buffer.from(rawBody);
      let key = await secret(false);
      if (!key) return { ok: false, reason: "secret_unavailable" };
      if (!matches(key, id, timestamp, body, signature)) {
        // The account's secret may have been rotated: read it again, at most once a minute.
        if (!cache || now() - cache.at < refetchAfter)
          return { ok: false, reason: "bad_signature" };
        key = await secret(true);
        if (!key || !matches(key, id, timestamp, body, signature))
          return { ok: false, reason: "bad_signature" };
      }
      const prediction = record(parseJson(body.toString("utf8")));
      const predictionId = prediction.id;
      if (typeof predictionId !== "string" || !ID_PATTERN.test(predictionId))
        return { ok: false, reason: "malformed_body" };
      return { ok: true, predictionId, status: String(prediction.status ?? "") };
    },
  };
}

/** Reads the account's webhook signing secret (`{ key: "whsec_…" }`); null on any failure. */
export async function fetchReplicateWebhookSecret(options: {
  key: string;
  baseUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}): Promise<string | null> {
  try {
    const res = await (options.fetch ?? fetch)(`${options.baseUrl}/webhooks/default/secret`, {
      headers: { Authorization: `Bearer ${options.key}`, Accept: "application/json" },
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    if (!res.ok) return null;
    const key = record(await res.json()).key;
    return typeof key === "string" && key.startsWith("whsec_") ? key : null;
  } catch {
    return null;
  }
}
