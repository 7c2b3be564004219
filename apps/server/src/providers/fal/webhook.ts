import { createHash, createPublicKey, type KeyObject, verify } from "node:crypto";

/*
 * fal webhook verification (reference/providers.md): ED25519 over
 * `request_id \n user_id \n timestamp \n sha256_hex(body)`, hex signature in
 * `X-Fal-Webhook-Signature`, public keys from fal's JWKS. fal retries a webhook up to 10
 * times, so the same request id can arrive more than once: callers de-duplicate on the
 * returned `requestId` (the job update is idempotent anyway, DESIGN §4.9).
 */

/** fal's published JWKS. */
export const FAL_JWKS_URL = "https://rest.alpha.fal.ai/.well-known/jwks.json";

/** The body fal POSTs to `fal_webhook`. */
export interface FalWebhookPayload {
  request_id: string;
  gateway_request_id?: string;
  status: "OK" | "ERROR";
  /** The model's result body (OK) or whatever fal could say about the failure. */
  payload: unknown;
  error?: string;
  payload_error?: string;
}

/** Why a webhook was refused; answer 401 for all but `jwks_unavailable` (503, so fal retries). */
export type FalWebhookRejection =
  | "missing_headers"
  | "stale_timestamp"
  | "bad_signature"
  | "jwks_unavailable"
  | "malformed_body"
  | "request_id_mismatch";

export type FalWebhookVerification =
  | { ok: true; requestId: string; payload: FalWebhookPayload }
  | { ok: false; reason: FalWebhookRejection };

export interface FalWebhookVerifierOptions {
  /** Default {@link FAL_JWKS_URL}. */
  jwksUrl?: string;
  fetch?: typeof fetch;
  /** How long fetched keys are trusted. Default 24 h. */
  cacheTtlMs?: number;
  /** A signature no cached key accepts re-fetches the JWKS once if the cache is older. Default 60 s. */
  refetchAfterMs?: number;
  /** Allowed clock difference. Default 300 s. */
  toleranceSeconds?: number;
  /** Clock, in ms (tests). */
  now?: () => number;
  /** Deadline for the JWKS fetch. Default 10 s. */
  timeoutMs?: number;
}

/** Headers as Node/Fastify give them, or a fetch `Headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface FalWebhookVerifier {
  /** Checks one delivery; pass the raw body bytes exactly as received. */
  verify(headers: WebhookHeaders, rawBody: Uint8Array | string): Promise<FalWebhookVerification>;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name.toLowerCase()] ?? headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Ed25519 keys of a JWKS document; other key types are skipped. */
function keysOf(jwks: unknown): KeyObject[] {
  const keys = (jwks as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) return [];
  return keys.flatMap((jwk: unknown) => {
    const k = jwk as { kty?: unknown; crv?: unknown; x?: unknown };
    if (k.kty !== "OKP" || k.crv !== "Ed25519" || typeof k.x !== "string") return [];
    try {
      return [createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: k.x }, format: "jwk" })];
    } catch {
      return [];
    }
  });
}

/** Creates a verifier with its own JWKS cache (share one per process). */
export function createFalWebhookVerifier(
  options: FalWebhookVerifierOptions = {},
): FalWebhookVerifier {
  const jwksUrl = options.jwksUrl ?? FAL_JWKS_URL;
  const doFetch = options.fetch ?? fetch;
  const ttl = options.cacheTtlMs ?? 24 * 3600_000;
  const refetchAfter = options.refetchAfterMs ?? 60_000;
  const tolerance = options.toleranceSeconds ?? 300;
  const now = options.now ?? Date.now;
  let cache: { keys: KeyObject[]; at: number } | null = null;
  let loading: Promise<KeyObject[] | null> | null = null;

  /** Fetched keys, or null when the JWKS cannot be loaded; concurrent callers share a fetch. */
  function loadKeys(force: boolean): Promise<KeyObject[] | null> {
    if (!force && cache && now() - cache.at < ttl) return Promise.resolve(cache.keys);
    loading ??= (async () => {
      try {
        const res = await doFetch(jwksUrl, {
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
        if (!res.ok) return cache?.keys ?? null;
        const keys = keysOf(await res.json());
        if (keys.length === 0) return cache?.keys ?? null;
        cache = { keys, at: now() };
        return keys;
      } catch {
        return cache?.keys ?? null;
      } finally {
        loading = null;
      }
    })();
    return loading;
  }

  return {
    async verify(headers, rawBody) {
      const requestId = header(headers, "x-fal-webhook-request-id");
      const userId = header(headers, "x-fal-webhook-user-id");
      const timestamp = header(headers, "x-fal-webhook-timestamp");
      const signatureHex = header(headers, "x-fal-webhook-signature");
      if (!requestId || !userId || !timestamp || !signatureHex) {
        return { ok: false, reason: "missing_headers" };
      }
      const seconds = Number(timestamp);
      if (!/^\d+$/.test(timestamp) || Math.abs(now() / 1000 - seconds) > tolerance) {
        return { ok: false, reason: "stale_timestamp" };
      }
      if (!/^([0-9a-f]{2})+$/i.test(signatureHex)) return { ok: false, reason: "bad_signature" };
      const body = typeof rawBody === "string" ? Buffer.from(rawBody) : Buffer.from(rawBody);
      const digest = createHash("sha256").update(body).digest("hex");
      const message = Buffer.from(`${requestId}\n${userId}\n${timestamp}\n${digest}`);
      const signature = Buffer.from(signatureHex, "hex");
      const matches = (keys: KeyObject[]) =>
        keys.some((k) => {
          try {
            return verify(null, message, k, signature);
          } catch {
            return false;
          }
        });

      let keys = await loadKeys(false);
      if (!keys) return { ok: false, reason: "jwks_unavailable" };
      if (!matches(keys)) {
        // fal may have rotated its key: look again, at most once a minute.
        if (!cache || now() - cache.at < refetchAfter)
          return { ok: false, reason: "bad_signature" };
        keys = await loadKeys(true);
        if (!keys || !matches(keys)) return { ok: false, reason: "bad_signature" };
      }

      let payload: FalWebhookPayload;
      try {
        payload = JSON.parse(body.toString("utf8")) as FalWebhookPayload;
      } catch {
        return { ok: false, reason: "malformed_body" };
      }
      if (typeof payload !== "object" || payload === null) {
        return { ok: false, reason: "malformed_body" };
      }
      if (payload.request_id !== requestId) return { ok: false, reason: "request_id_mismatch" };
      return { ok: true, requestId, payload };
    },
  };
}
