import { WORKFLOW_VERSION } from "./constants.ts";

/** A named, tested step from one saved-workflow version to the next. */
export interface Migration {
  name: string;
  from: string;
  to: string;
  migrate(data: Record<string, unknown>): Record<string, unknown>;
}

/**
 * SPEC §4: "Migration between versions does nothing." Version 1.0.0 is the only format so
 * far; a future format adds its step here and this list stays the single path.
 */
export const MIGRATIONS: readonly Migration[] = [];

/** Applies every migration from the data's version up to the current one. */
export function migrateWorkflow<T extends Record<string, unknown>>(data: T): T {
  let current: Record<string, unknown> = data;
  for (const step of MIGRATIONS) {
    if (current.version === step.from) current = step.migrate(current);
  }
  return current as T;
}

export function majorVersion(version: string): number | null {
  const major = Number.parseInt(version.split(".")[0] ?? "", 10);
  return Number.isNaN(major) ? null : major;
}

export const CURRENT_MAJOR = majorVersion(WORKFLOW_VERSION) ?? 1;
