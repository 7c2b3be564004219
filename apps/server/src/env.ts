import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { SIGNUP_MODES, type SignupMode } from "@atelier/core";
import { z } from "zod";
import { type GenerationConfig, generationConfig, zGenerationEnv } from "./env-generation.ts";
import { type AbuseLimits, limitsConfig, zLimitsEnv } from "./env-limits.ts";
import type { S3Options } from "./storage/s3-store.ts";

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();
const list = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? "")
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean),
  );

const zEnv = zGenerationEnv.extend(zLimitsEnv.shape).extend({
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_BUCKET: optionalText,
  S3_REGION: z.string().default("us-east-1"),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: z.enum(["true", "false"]).default("true"),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  GITHUB_CLIENT_ID: optionalText,
  GITHUB_CLIENT_SECRET: optionalText,
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: optionalText,
  OIDC_CLIENT_SECRET: optionalText,
  OIDC_PROVIDER_ID: z
    .string()
    .regex(/^[a-z0-9-]+$/, "use lower-case letters, digits and dashes")
    .default("oidc"),
  OIDC_NAME: z.string().default("Single sign-on"),
  ADMIN_EMAILS: list,
  /** Outgoing mail (verification, password reset): smtp://user:pass@host:587 or smtps://…:465. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, "must be an smtp:// or smtps:// URL")
    .optional(),
  /** The sender of those messages. */
  MAIL_FROM: optionalText,
  /** Who may create an account: open (anyone), invite (an admin's invitation), closed. */
  SIGNUP: z.enum(SIGNUP_MODES).default("open"),
  /** Sign-up is limited to addresses at these domains (empty: any). */
  ALLOWED_EMAIL_DOMAINS: list,
  TRUSTED_ORIGINS: list,
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** Lets Prometheus scrape /metrics with `Authorization: Bearer <token>` (see metrics.ts). */
  METRICS_TOKEN: optionalText.refine(
    (token) => token === undefined || token.length >= 16,
    "must be at least 16 characters",
  ),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** How long a validated session cookie is trusted without a database read (0: never). */
  SESSION_CACHE_TTL_MS: z.coerce.number().int().min(0).max(300_000).default(10_000),
  /** How long a job status answer is reused while no change notice came (0: never). */
  JOB_STATUS_CACHE_TTL_MS: z.coerce.number().int().min(0).max(300_000).default(10_000),
  /** Memory for batches of large saves in progress (MB; single-process servers only). */
  SAVE_STAGING_MEMORY_MB: z.coerce.number().int().min(0).max(65_536).default(256),
});

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
}

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  s3: S3Options | null;
  authSecret: string;
  google: OAuthClient | null;
  github: OAuthClient | null;
  oidc: (OAuthClient & { issuer: string; providerId: string; name: string }) | null;
  adminEmails: string[];
  /** Outgoing mail; null: none (an admin issues reset links instead). */
  mail: { smtpUrl: string; from: string } | null;
  signup: SignupMode;
  /** Lower-case domains sign-up is limited to; empty: any. */
  allowedEmailDomains: string[];
  trustedOrigins: string[];
  /** Rate limits, budgets and caps against abuse (env-limits.ts). */
  limits: AbuseLimits;
  logLevel: string;
  /**
   * The bearer token GET /metrics asks for; null: /metrics answers only when HOST is a
   * loopback or private address (http/metrics-access.ts).
   */
  metricsToken: string | null;
  /**
   * Job status polls trust a session cookie validated this recently (ms) without reading the
   * database again; a sign-out in another process takes effect within it (0: off).
   */
  sessionCacheTtlMs: number;
  /**
   * Job status polls reuse an answer this long (ms) unless the job's change notice comes
   * first; the bound should a notice be lost (0: off).
   */
  jobStatusCacheTtlMs: number;
  /**
   * Bytes of staged save batches kept in memory until their commit (beyond: in the store).
   * Web processes behind a load balancer stage in the store only (`startWeb` sets 0).
   */
  saveStagingMemoryBytes: number;
  /** How many reverse proxies in front may set X-Forwarded-For (0: use the socket address). */
  trustProxy: number;
  /** True when PUBLIC_URL was given: providers can call us back (webhooks). */
  publicUrlSet: boolean;
  generation: GenerationConfig;
}

export class ConfigError extends Error {}

/** Both halves of a pair, or neither; naming the missing variable. */
function pair(env: z.infer<typeof zEnv>, id: "GOOGLE" | "GITHUB" | "OIDC"): OAuthClient | null {
  const clientId = env[`${id}_CLIENT_ID`];
  const clientSecret = env[`${id}_CLIENT_SECRET`];
  if (!clientId && !clientSecret) return null;
  if (!clientId)
    throw new ConfigError(
      `Invalid configuration: ${id}_CLIENT_ID is required when ${id}_CLIENT_SECRET is set`,
    );
  if (!clientSecret)
    throw new ConfigError(
      `Invalid configuration: ${id}_CLIENT_SECRET is required when ${id}_CLIENT_ID is set`,
    );
  return { clientId, clientSecret };
}

/** The auth secret from env, else the one kept in DATA_DIR, else a new one written there. */
function authSecret(given: string | undefined, dataDir: string): string {
  if (given) return given;
  const file = join(dataDir, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

/**
 * Reads and checks the configuration once at start-up. A bad value stops the process with
 * a message that names the variable.
 */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = zEnv.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join(".")} — ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
  }
  const env = parsed.data;
  const dataDir = resolve(env.DATA_DIR);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");

  const s3Values = [env.S3_BUCKET, env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY, env.S3_ENDPOINT];
  let s3: Config["s3"] = null;
  if (s3Values.some(Boolean)) {
    for (const name of ["S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const) {
      if (!env[name])
        throw new ConfigError(
          `Invalid configuration: ${name} is required when S3 storage is configured`,
        );
    }
    s3 = {
      ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {}),
      bucket: env.S3_BUCKET as string,
      region: env.S3_REGION,
      accessKeyId: env.S3_ACCESS_KEY_ID as string,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY as string,
      forcePathStyle: env.S3_FORCE_PATH_STYLE === "true",
    };
  }

  const oidcClient = pair(env, "OIDC");
  if (oidcClient && !env.OIDC_ISSUER)
    throw new ConfigError(
      "Invalid configuration: OIDC_ISSUER is required when OIDC_CLIENT_ID is set",
    );

  return {
    port: env.PORT,
    host: env.HOST,
    publicUrl,
    dataDir,
    databaseUrl: env.DATABASE_URL ?? null,
    s3,
    authSecret: authSecret(env.AUTH_SECRET, dataDir),
    google: pair(env, "GOOGLE"),
    github: pair(env, "GITHUB"),
    oidc:
      oidcClient && env.OIDC_ISSUER
        ? {
            ...oidcClient,
            issuer: env.OIDC_ISSUER.replace(/\/$/, ""),
            providerId: env.OIDC_PROVIDER_ID,
            name: env.OIDC_NAME,
          }
        : null,
    adminEmails: env.ADMIN_EMAILS.map((email) => email.toLowerCase()),
    mail: env.SMTP_URL
      ? {
          smtpUrl: env.SMTP_URL,
          from: env.MAIL_FROM ?? `Atelier <no-reply@${new URL(publicUrl).hostname}>`,
        }
      : null,
    signup: env.SIGNUP,
    allowedEmailDomains: env.ALLOWED_EMAIL_DOMAINS.map((domain) =>
      domain.toLowerCase().replace(/^@/, ""),
    ),
    // Without PUBLIC_URL, both loopback spellings of the default address work.
    trustedOrigins: [
      publicUrl,
      ...(env.PUBLIC_URL ? [] : [`http://127.0.0.1:${env.PORT}`]),
      ...env.TRUSTED_ORIGINS,
    ],
    limits: limitsConfig(env),
    logLevel: env.LOG_LEVEL,
    metricsToken: env.METRICS_TOKEN ?? null,
    sessionCacheTtlMs: env.SESSION_CACHE_TTL_MS,
    jobStatusCacheTtlMs: env.JOB_STATUS_CACHE_TTL_MS,
    saveStagingMemoryBytes: env.SAVE_STAGING_MEMORY_MB * 1024 * 1024,
    trustProxy: env.TRUST_PROXY,
    publicUrlSet: Boolean(env.PUBLIC_URL),
    generation: generationConfig(env),
  };
}
