import { existsSync } from "node:fs";
import { loadEnvFile } from "node:process";
import { ConfigError } from "../env.ts";

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
