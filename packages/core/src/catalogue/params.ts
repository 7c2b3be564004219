/**
 * A node type's parameters as plain specs: the editor's forms read them, and `parse` checks
 * values against them. Five primitive kinds need no schema library, which keeps zod out of
 * the editor's first load (DESIGN §7; the API's DTOs still use zod).
 */
interface Described {
  /** The field's label on the node. */
  description?: string;
}

export type ParamSpec =
  | (Described & { kind: "choice"; values: readonly [string, ...string[]]; default: string })
  | (Described & {
      kind: "number";
      min: number;
      max: number;
      default: number;
      integer: boolean;
    })
  | (Described & { kind: "flag"; default: boolean })
  | (Described & { kind: "text"; default: string })
  /** A whole number in 0..2^32-1, or null for "let the model pick". */
  | (Described & { kind: "seed" });

export type ParamShape = Record<string, ParamSpec>;

export type ParamCheck =
  | { success: true; data: Record<string, unknown> }
  | {
      success: false;
      error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
    };

export interface NodeParams {
  /** Each parameter's spec, in the order the form shows them. */
  readonly shape: Readonly<ParamShape>;
  /** Values with defaults filled and unknown keys dropped; throws on a bad value. */
  parse(input: unknown): Record<string, unknown>;
  safeParse(input: unknown): ParamCheck;
}

export const SEED_MAX = 4_294_967_295;

type Issue = { path: readonly PropertyKey[]; message: string };

/** The value's problem against its spec, or null. */
export function problemOf(spec: ParamSpec, value: unknown): string | null {
  switch (spec.kind) {
    case "choice":
      return spec.values.includes(value as string)
        ? null
        : `Invalid option: expected one of ${spec.values.map((v) => `"${v}"`).join("|")}`;
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) return "Expected a number";
      if (spec.integer && !Number.isInteger(value)) return "Expected a whole number";
      if (value < spec.min) return `Too small: expected a number >= ${spec.min}`;
      if (value > spec.max) return `Too big: expected a number <= ${spec.max}`;
      return null;
    case "flag":
      return typeof value === "boolean" ? null : "Expected true or false";
    case "text":
      return typeof value === "string" ? null : "Expected text";
    case "seed":
      return value === null ||
        (typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= SEED_MAX)
        ? null
        : `Expected null or a whole number from 0 to ${SEED_MAX}`;
  }
}

const defaultOf = (spec: ParamSpec): unknown => (spec.kind === "seed" ? null : spec.default);

/** A node type's parameters from their specs. */
export function params(shape: ParamShape): NodeParams {
  const safeParse = (input: unknown): ParamCheck => {
    if (
      input !== undefined &&
      (typeof input !== "object" || input === null || Array.isArray(input))
    )
      return { success: false, error: { issues: [{ path: [], message: "Expected an object" }] } };
    const given = (input ?? {}) as Record<string, unknown>;
    const data: Record<string, unknown> = {};
    const issues: Issue[] = [];
    // Unknown keys are dropped; a missing (undefined) value takes its default.
    for (const [name, spec] of Object.entries(shape)) {
      const value = given[name] === undefined ? defaultOf(spec) : given[name];
      const problem = problemOf(spec, value);
      if (problem) issues.push({ path: [name], message: problem });
      else data[name] = value;
    }
    return issues.length > 0 ? { success: false, error: { issues } } : { success: true, data };
  };
  return {
    shape,
    safeParse,
    parse(input) {
      const checked = safeParse(input);
      if (!checked.success)
        throw new Error(
          checked.error.issues
            .map((issue) => `${String(issue.path[0] ?? "")}: ${issue.message}`)
            .join("; "),
        );
      return checked.data;
    },
  };
}
