import {
  APP_LIMITS,
  APP_MESSAGES,
  type AppFormField,
  type ParamSpec,
  problemOf,
  SEED_MAX,
} from "@atelier/core";

/**
 * The app page's form as the visitor fills it, and the run request it becomes. Numbers and
 * seeds are kept as typed text (a field may be empty while typing); a file field holds the
 * URL its upload answered.
 */
export type DraftValue = string | boolean;
export type Draft = Record<string, DraftValue>;

/** The form as the app was published: each field's default. */
export function initialDraft(fields: readonly AppFormField[]): Draft {
  const draft: Draft = {};
  for (const field of fields) {
    const input = field.input;
    switch (input.type) {
      case "text":
      case "select":
        draft[field.id] = input.default;
        break;
      case "number":
        draft[field.id] = String(input.default);
        break;
      case "flag":
        draft[field.id] = input.default;
        break;
      case "seed":
        draft[field.id] = input.default === null ? "" : String(input.default);
        break;
      case "media":
        draft[field.id] = "";
        break;
    }
  }
  return draft;
}

/** The spec core checks a run's value with, from the form's description of the field. */
function specOf(input: AppFormField["input"]): ParamSpec | null {
  switch (input.type) {
    case "text":
      return { kind: "text", default: input.default };
    case "select":
      return {
        kind: "choice",
        values: input.options as [string, ...string[]],
        default: input.default,
      };
    case "number":
      return { ...input, kind: "number" };
    case "flag":
      return { kind: "flag", default: input.default };
    case "seed":
      return { kind: "seed" };
    case "media":
      return null;
  }
}

/** Typed text as a number; empty or not a number is NaN (core's check names the problem). */
const numberOf = (text: string) => (text.trim() === "" ? Number.NaN : Number(text.trim()));

/** One field's value for the run request, or its problem in the server's words. */
function fieldValue(
  field: AppFormField,
  raw: DraftValue | undefined,
): { value: unknown } | { problem: string } {
  const input = field.input;
  if (input.type === "media") {
    return typeof raw === "string" && raw
      ? { value: raw }
      : { problem: APP_MESSAGES.mediaRequired(field.label) };
  }
  let value: unknown;
  if (input.type === "flag") value = raw === true;
  else if (input.type === "number") value = numberOf(String(raw ?? ""));
  else if (input.type === "seed")
    value = String(raw ?? "").trim() === "" ? null : numberOf(String(raw));
  else value = String(raw ?? "");
  if (input.type === "text" && (value as string).length > APP_LIMITS.textLength)
    return {
      problem: APP_MESSAGES.badValue(field.label, `at most ${APP_LIMITS.textLength} characters`),
    };
  const spec = specOf(input);
  const problem = spec ? problemOf(spec, value) : null;
  return problem ? { problem: APP_MESSAGES.badValue(field.label, problem) } : { value };
}

export type BuiltValues =
  | { ok: true; values: Record<string, unknown> }
  | { ok: false; problems: Record<string, string> };

/** The run request's values, or each field's problem (checked as the server will). */
export function buildValues(fields: readonly AppFormField[], draft: Draft): BuiltValues {
  const values: Record<string, unknown> = {};
  const problems: Record<string, string> = {};
  for (const field of fields) {
    const result = fieldValue(field, draft[field.id]);
    if ("problem" in result) problems[field.id] = result.problem;
    else values[field.id] = result.value;
  }
  return Object.keys(problems).length > 0 ? { ok: false, problems } : { ok: true, values };
}

/** A new seed for the dice button: any whole number the models take. */
export const rollSeed = (random: () => number = Math.random): string =>
  String(Math.floor(random() * (SEED_MAX + 1)));
