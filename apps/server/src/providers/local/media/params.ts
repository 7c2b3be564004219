/**
 * Parameter checking shared by the local media functions. Errors name the operation, the
 * parameter and the accepted range, so a provider can show them to the user as they are.
 */
import { parseAspectRatio } from "@atelier/core";

/** A caller asked for something the local media library cannot make (bad or missing params). */
export class LocalMediaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LocalMediaError";
  }
}

/** Loose parameter bag, as node params arrive from the workflow. */
export type Params = Record<string, unknown>;

interface NumberRule {
  min: number;
  max: number;
  /** Used when the parameter is absent (undefined or null); without it, absence is an error. */
  fallback?: number;
  integer?: boolean;
}

/** Reads a finite number in [min, max] (an integer when asked); numeric strings are accepted. */
export function num(where: string, params: Params, key: string, rule: NumberRule): number {
  const raw = params[key];
  if (raw === undefined || raw === null || raw === "") {
    if (rule.fallback !== undefined) return rule.fallback;
    throw new LocalMediaError(`${where}: "${key}" is required`);
  }
  const value = typeof raw === "string" ? Number(raw) : raw;
  const kind = rule.integer ? "an integer" : "a number";
  if (
    typeof value !== "number" ||
    !Number.isFinite(value) ||
    (rule.integer && !Number.isInteger(value)) ||
    value < rule.min ||
    value > rule.max
  ) {
    throw new LocalMediaError(
      `${where}: "${key}" must be ${kind} from ${rule.min} to ${rule.max} (got ${JSON.stringify(raw)})`,
    );
  }
  return value;
}

/** Reads one of `allowed` (or `fallback` when absent). */
export function oneOf<T extends string>(
  where: string,
  params: Params,
  key: string,
  allowed: readonly T[],
  fallback?: T,
): T {
  const raw = params[key];
  if (raw === undefined || raw === null || raw === "") {
    if (fallback !== undefined) return fallback;
    throw new LocalMediaError(`${where}: "${key}" is required (one of ${allowed.join(", ")})`);
  }
  if (typeof raw !== "string" || !(allowed as readonly string[]).includes(raw)) {
    throw new LocalMediaError(
      `${where}: "${key}" must be one of ${allowed.join(", ")} (got ${JSON.stringify(raw)})`,
    );
  }
  return raw as T;
}

/** Parses an aspect ratio such as "16:9", "4/3" or 1.5 into width ÷ height. */
export function aspectRatio(where: string, raw: unknown): number {
  const fail = () =>
    new LocalMediaError(
      `${where}: "aspectRatio" must look like "16:9" or be a positive number (got ${JSON.stringify(raw)})`,
    );
  if (raw === undefined || raw === null || raw === "") {
    throw new LocalMediaError(`${where}: "aspectRatio" is required (e.g. "16:9")`);
  }
  const ratio = parseAspectRatio(raw);
  if (ratio === null) throw fail();
  // Beyond 1:100 the "image" is a line; reject rather than allocate absurd canvases.
  if (ratio < 0.01 || ratio > 100) throw fail();
  return ratio;
}

/** Integer size checks for generated media (width, height, …). */
export function dimension(where: string, key: string, value: unknown, max: number): number {
  return num(where, { [key]: value }, key, { min: 1, max, integer: true });
}
