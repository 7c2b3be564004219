import type { FastifyInstance } from "fastify";
import { HttpError, NUL_MESSAGE } from "./errors.ts";

/** Deeper JSON is refused: recursive checks (zod, JSON.stringify, jsonb) must not overflow. */
export const MAX_JSON_DEPTH = 100;
export const DEPTH_MESSAGE = `Invalid request: data is nested more than ${MAX_JSON_DEPTH} levels deep`;
export const SURROGATE_MESSAGE =
  "Invalid request: text must be valid Unicode (it holds a lone surrogate, \\ud800–\\udfff)";

/** A NUL (PostgreSQL refuses it in text) or a lone surrogate (it would become U+FFFD). */
function textProblem(text: string): string | null {
  if (text.includes("\u0000")) return NUL_MESSAGE;
  // Native and instant for one-byte strings (most JSON), which cannot hold surrogates.
  return (text as string & { isWellFormed(): boolean }).isWellFormed() ? null : SURROGATE_MESSAGE;
}

const isParsedJson = (value: object) =>
  Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype;

/**
 * Why a parsed JSON value is refused — nested deeper than MAX_JSON_DEPTH, or a text (value
 * or key) holding a NUL or a lone surrogate — or null when it is fine. Anything but plain
 * objects and arrays (a raw body kept as a Buffer) is not looked into.
 */
export function jsonProblem(value: unknown, depth = 0): string | null {
  if (typeof value === "string") return textProblem(value);
  if (typeof value !== "object" || value === null || !isParsedJson(value)) return null;
  if (depth >= MAX_JSON_DEPTH) return DEPTH_MESSAGE;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = jsonProblem(item, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  for (const key in value) {
    const problem =
      textProblem(key) ?? jsonProblem((value as Record<string, unknown>)[key], depth + 1);
    if (problem) return problem;
  }
  return null;
}

/**
 * Input every route refuses with a 400 before its handler runs: a NUL in the URL (path or
 * query), and a parsed JSON body that `jsonProblem` refuses. Without it these reached the
 * database (NUL: a 500; lone surrogates: silently replaced) or overflowed the stack (deep
 * nesting: a 500).
 */
export async function inputGuard(app: FastifyInstance): Promise<void> {
  app.addHook("onRequest", (request, _reply, done) => {
    done(request.url.includes("%00") ? (new HttpError(400, NUL_MESSAGE) as never) : undefined);
  });
  app.addHook("preValidation", (request, _reply, done) => {
    const problem = jsonProblem(request.body);
    done(problem ? (new HttpError(400, problem) as never) : undefined);
  });
}
// Applies to the app it is registered on, not only inside its own scope.
Object.assign(inputGuard, { [Symbol.for("skip-override")]: true });
