import { type Logger, pino } from "pino";

export type { Logger } from "pino";

/**
 * Under the test runner nothing is logged unless LOG_LEVEL asks for it: dozens of servers
 * start in one run, and their request lines would bury the test output.
 */
function levelFor(configured: string): string {
  return process.env.VITEST && !process.env.LOG_LEVEL ? "silent" : configured;
}

/**
 * The process's one structured logger (JSON lines on stdout). Fastify logs its requests
 * through it and every module takes a child of it, named by `module`. Its level is set from
 * LOG_LEVEL when the configuration is read (`setLogLevel`); until then, "info".
 */
export const rootLogger: Logger = pino({ level: levelFor(process.env.LOG_LEVEL ?? "info") });

/** Applies the configured level to the root and to children made after this. */
export function setLogLevel(configured: string): void {
  rootLogger.level = levelFor(configured);
}

/**
 * A module's logger. Take it when it is needed (not at import): a child keeps the level the
 * root had when it was made.
 */
export function moduleLogger(module: string): Logger {
  return rootLogger.child({ module });
}

/** The root logger at another level (same silence under tests). */
export function loggerAt(level: string): Logger {
  const wanted = levelFor(level);
  return wanted === rootLogger.level ? rootLogger : rootLogger.child({}, { level: wanted });
}
