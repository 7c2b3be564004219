import { ANONYMOUS_RUNS, type AnonymousRuns } from "@atelier/core";
import { z } from "zod";
import { FFMPEG_OFF, isExecutableFile } from "./providers/local/ffmpeg/locate.ts";

const key = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();
const base = z.url({ protocol: /^https?$/ }).optional();
/** The providers an operator can configure (PROVIDER_ORDER names them). */
const RUN_PROVIDERS = [
  "comfyui",
  "fal",
  "runway",
  "luma",
  "google",
  "openai",
  "elevenlabs",
  "replicate",
] as const;

/** Generation settings (read with the rest of env.ts). Keys never leave the server. */
export const zGenerationEnv = z.object({
  FAL_KEY: key,
  FAL_QUEUE_URL: base,
  FAL_REST_URL: base,
  FAL_WEBHOOK_JWKS_URL: base,
  RUNWAY_API_KEY: key,
  RUNWAY_BASE_URL: base,
  LUMA_API_KEY: key,
  LUMA_BASE_URL: base,
  GEMINI_API_KEY: key,
  GEMINI_BASE_URL: base,
  OPENAI_API_KEY: key,
  OPENAI_BASE_URL: base,
  ELEVENLABS_API_KEY: key,
  ELEVENLABS_BASE_URL: base,
  REPLICATE_API_TOKEN: key,
  /** Replicate's API base, `…/v1` included (tests: the fake's). */
  REPLICATE_BASE_URL: base,
  /**
   * The account's webhook signing secret (`whsec_…`); unset: read once from Replicate's
   * GET /v1/webhooks/default/secret with the token, then cached.
   */
  REPLICATE_WEBHOOK_SECRET: key.refine(
    (value) => value === undefined || /^whsec_[A-Za-z0-9+/=]+$/.test(value),
    'must look like "whsec_…"',
  ),
  /** The operator's ComfyUI: one base URL, or several (comma-separated) for a pool. */
  COMFYUI_URL: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? "")
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url({ protocol: /^https?$/ }))),
  /**
   * Where several configured providers can run the same node, the first listed wins (e.g.
   * `comfyui,fal`: the open-weight nodes go to your GPU even with a fal key).
   */
  PROVIDER_ORDER: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? "")
        .split(",")
        .map((item) => item.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine(
      (ids) => ids.every((id) => (RUN_PROVIDERS as readonly string[]).includes(id)),
      `must list providers among ${RUN_PROVIDERS.join(", ")}`,
    ),
  /** One header sent with every ComfyUI call, as `Name: value` (a proxy's auth). */
  COMFYUI_AUTH_HEADER: key.refine(
    (value) => value === undefined || /^[\w-]+:\s*\S/.test(value),
    'must look like "Authorization: Bearer …"',
  ),
  /** host:port pairs the outbound fetcher may reach although private (self-hosted services, tests). */
  OUTBOUND_ALLOW_HOSTS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? "")
        .split(",")
        .map((item) => item.trim().toLowerCase())
        .filter(Boolean),
    ),
  /**
   * What anonymous sessions may run: `local` (default) the offline provider only, `all` every
   * configured provider (paid calls on the operator's keys), `none` nothing (sign in first).
   */
  ANONYMOUS_RUNS: z.enum(ANONYMOUS_RUNS).default("local"),
  /** Length of one simulated step of the offline provider. */
  LOCAL_PROVIDER_STEP_MS: z.coerce.number().int().min(0).max(60_000).default(400),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** A job no worker touched for this long is taken over (its worker died). */
  JOB_STALE_AFTER_MS: z.coerce.number().int().min(1000).max(3_600_000).default(90_000),
  /**
   * Overrides every provider's status poll interval — a fixed one, no backoff, the webhook
   * safety net included (tests against fake providers).
   */
  PROVIDER_POLL_MS: z.coerce.number().int().min(10).max(60_000).optional(),
  /** A job waiting for a provider's webhook is still checked this often (a lost webhook). */
  JOB_WEBHOOK_SAFETY_POLL_MS: z.coerce.number().int().min(1000).max(900_000).default(120_000),
  /** The ffmpeg that merges videos locally; "off" sends merges to a provider. */
  FFMPEG_PATH: key.refine(
    (value) => value === undefined || value === FFMPEG_OFF || isExecutableFile(value),
    `must be the path of an ffmpeg executable, or "${FFMPEG_OFF}"`,
  ),
});

export interface ProviderKey {
  key: string;
  baseUrl?: string;
}

export interface GenerationConfig {
  fal: (ProviderKey & { restUrl?: string; jwksUrl?: string }) | null;
  runway: ProviderKey | null;
  luma: ProviderKey | null;
  google: ProviderKey | null;
  openai: ProviderKey | null;
  elevenlabs: ProviderKey | null;
  /** REPLICATE_API_TOKEN: the key, and the webhook secret when one is set. */
  replicate: (ProviderKey & { webhookSecret?: string }) | null;
  /** COMFYUI_URL: its instances, and the header for each call. */
  comfyui: { urls: string[]; headers: Record<string, string> } | null;
  /** PROVIDER_ORDER: the preferred providers first. */
  providerOrder: string[];
  outboundAllowHosts: string[];
  localStepMs: number;
  workerConcurrency: number;
  pollMs: number | null;
  webhookSafetyMs: number;
  staleAfterMs: number;
  /** FFMPEG_PATH: a checked path, "off", or null to look for one. */
  ffmpegPath: string | null;
  /** ANONYMOUS_RUNS: which providers anonymous sessions may use. */
  anonymousRuns: AnonymousRuns;
}

const withBase = (keyValue: string | undefined, baseUrl: string | undefined) =>
  keyValue ? { key: keyValue, ...(baseUrl ? { baseUrl: baseUrl.replace(/\/$/, "") } : {}) } : null;

export function generationConfig(env: z.infer<typeof zGenerationEnv>): GenerationConfig {
  const fal = withBase(env.FAL_KEY, env.FAL_QUEUE_URL);
  const replicate = withBase(env.REPLICATE_API_TOKEN, env.REPLICATE_BASE_URL);
  return {
    fal: fal
      ? {
          ...fal,
          ...(env.FAL_REST_URL ? { restUrl: env.FAL_REST_URL } : {}),
          ...(env.FAL_WEBHOOK_JWKS_URL ? { jwksUrl: env.FAL_WEBHOOK_JWKS_URL } : {}),
        }
      : null,
    runway: withBase(env.RUNWAY_API_KEY, env.RUNWAY_BASE_URL),
    luma: withBase(env.LUMA_API_KEY, env.LUMA_BASE_URL),
    google: withBase(env.GEMINI_API_KEY, env.GEMINI_BASE_URL),
    openai: withBase(env.OPENAI_API_KEY, env.OPENAI_BASE_URL),
    elevenlabs: withBase(env.ELEVENLABS_API_KEY, env.ELEVENLABS_BASE_URL),
    replicate:
      replicate && env.REPLICATE_WEBHOOK_SECRET
        ? { ...replicate, webhookSecret: env.REPLICATE_WEBHOOK_SECRET }
        : replicate,
    comfyui:
      env.COMFYUI_URL.length > 0 ? comfyuiOf(env.COMFYUI_URL, env.COMFYUI_AUTH_HEADER) : null,
    providerOrder: env.PROVIDER_ORDER,
    outboundAllowHosts: env.OUTBOUND_ALLOW_HOSTS,
    localStepMs: env.LOCAL_PROVIDER_STEP_MS,
    workerConcurrency: env.WORKER_CONCURRENCY,
    pollMs: env.PROVIDER_POLL_MS ?? null,
    webhookSafetyMs: env.JOB_WEBHOOK_SAFETY_POLL_MS,
    staleAfterMs: env.JOB_STALE_AFTER_MS,
    ffmpegPath: env.FFMPEG_PATH ?? null,
    anonymousRuns: env.ANONYMOUS_RUNS,
  };
}

function comfyuiOf(urls: string[], header: string | undefined) {
  const at = header?.indexOf(":") ?? -1;
  const headers =
    header && at > 0 ? { [header.slice(0, at).trim()]: header.slice(at + 1).trim() } : {};
  return { urls: urls.map((url) => url.replace(/\/+$/, "")), headers };
}
