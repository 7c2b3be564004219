import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { loadEnvFile } from "node:process";
import { ConfigError } from "../env.ts";
import type { S3Options } from "../storage/s3-store.ts";

/**
 * Reads `.env` (or the file ENV_FILE names) into the environment before the configuration
 * is read; variables already set win, as with Node's `--env-file`. A missing `.env` is
 * fine; a missing ENV_FILE is a configuration error.
 */
export function readEnvFile(): void {
  const named = process.env.ENV_FILE;
  const path = named ?? ".env";
  if (!existsSync(path)) {
    if (named)
      throw new ConfigError(`ENV_FILE names ${named}, which does not exist — set ENV_FILE`);
    return;
  }
  loadEnvFile(path);
}

/**
 * Ends a start that failed on a setting with the one line naming it (exit code 78, EX_CONFIG);
 * anything else is thrown on, stack and all.
 */
export function exitOnConfigError(error: unknown): never {
  const problem = startupProblem(error, {
    port: Number(process.env.PORT ?? 3000),
    dataDir: resolve(process.env.DATA_DIR ?? "./data"),
    databaseUrl: process.env.DATABASE_URL ?? null,
  });
  if (problem) {
    // A plain line for the operator, not a JSON log record.
    process.stderr.write(`${problem.message}\n`);
    process.exit(78);
  }
  throw error;
}

type SystemError = Error & { code?: string; syscall?: string; path?: string };

/**
 * A start-up failure an operator can fix, as the one line that says which setting to change;
 * anything else is left as it is (a bug, with its stack).
 */
export function startupProblem(
  error: unknown,
  settings: { port?: number; dataDir?: string; databaseUrl?: string | null },
): ConfigError | null {
  if (error instanceof ConfigError) return error;
  const problem = error as SystemError;
  const code = problem?.code ?? (problem?.cause as SystemError | undefined)?.code;
  if (code === "EADDRINUSE") return new ConfigError(`Port ${settings.port} is in use — set PORT`);
  if (code === "EACCES" && problem.syscall === "listen")
    return new ConfigError(`Port ${settings.port} needs privileges this user lacks — set PORT`);
  if (
    (code === "EACCES" || code === "ENOTDIR" || code === "EROFS" || code === "EPERM") &&
    settings.dataDir &&
    problem.path?.startsWith(settings.dataDir)
  )
    return new ConfigError(`DATA_DIR ${settings.dataDir} is not a writable folder — set DATA_DIR`);
  if (
    settings.databaseUrl &&
    ["ECONNREFUSED", "ENOTFOUND", "ETIMEDOUT", "EAI_AGAIN", "28P01", "28000", "3D000"].includes(
      code ?? "",
    )
  )
    return new ConfigError(
      `Cannot reach the database at DATABASE_URL (${databaseHost(settings.databaseUrl)}: ${code}) — check DATABASE_URL`,
    );
  return null;
}

/** Host, port and database of a connection string, never its password. */
function databaseHost(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
  } catch {
    return "unparsable URL";
  }
}

/** S3 answers that mean the keys are wrong or lack the rights on the bucket. */
const S3_REFUSALS = new Set([
  "AccessDenied",
  "Forbidden",
  "InvalidAccessKeyId",
  "SignatureDoesNotMatch",
  "InvalidClientTokenId",
]);

/**
 * The line for an S3 bucket that failed at start-up: unreachable, missing and not creatable,
 * or refusing the keys. Names the host and the failure's code, never the keys.
 */
export function s3StartProblem(
  error: unknown,
  s3: Pick<S3Options, "bucket" | "endpoint" | "region">,
): ConfigError {
  const failure = error as SystemError & {
    errors?: SystemError[];
    $metadata?: { httpStatusCode?: number };
  };
  const status = failure?.$metadata?.httpStatusCode;
  const named = failure?.name && failure.name !== "Error" ? failure.name : undefined;
  const code =
    failure?.code ??
    failure?.errors?.find((inner) => inner.code)?.code ??
    named ??
    (status ? `HTTP ${status}` : "no answer");
  const where = s3.endpoint
    ? `at S3_ENDPOINT (${endpointHost(s3.endpoint)}: ${code})`
    : `in S3_REGION ${s3.region} (${code})`;
  if (S3_REFUSALS.has(code) || status === 403)
    return new ConfigError(
      `The S3 bucket ${s3.bucket} ${where} refused the keys — check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY`,
    );
  return new ConfigError(
    `Cannot reach the S3 bucket ${s3.bucket} ${where} — check ${s3.endpoint ? "S3_ENDPOINT" : "S3_REGION"}, S3_BUCKET and the S3 keys`,
  );
}

function endpointHost(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return "unparsable URL";
  }
}
