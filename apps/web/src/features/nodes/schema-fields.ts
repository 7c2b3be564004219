import { getNodeDefinition } from "@atelier/core";

export type FieldKind = "textarea" | "text" | "select" | "number" | "toggle" | "seed";

export interface FieldSpec {
  name: string;
  label: string;
  kind: FieldKind;
  options?: string[];
  min?: number;
  max?: number;
  step?: number;
  /** Shown up front; the rest sits under "Advanced". */
  essential: boolean;
}

const ESSENTIAL = new Set([
  "prompt",
  "text",
  "aspectRatio",
  "duration",
  "seconds",
  "model",
  "imageSize",
  "resolution",
  "mode",
  "name",
  "description",
]);
const cache = new Map<string, FieldSpec[]>();

/** The form of a node type, read once from its parameter specs. */
export function fieldsOf(type: string): FieldSpec[] {
  const cached = cache.get(type);
  if (cached) return cached;
  const definition = getNodeDefinition(type);
  if (!definition) return [];
  const fields = Object.entries(definition.params.shape).map(([name, spec]): FieldSpec => {
    const base = { name, label: spec.description ?? name, essential: ESSENTIAL.has(name) };
    switch (spec.kind) {
      case "seed":
        return { ...base, kind: "seed" };
      case "choice":
        return { ...base, kind: "select", options: [...spec.values] };
      case "flag":
        return { ...base, kind: "toggle" };
      case "number":
        return {
          ...base,
          kind: "number",
          min: spec.min,
          max: spec.max,
          step: spec.integer ? 1 : 0.05,
        };
      default: {
        const long =
          name === "prompt" ||
          name === "text" ||
          name === "lyrics" ||
          name.toLowerCase().includes("prompt");
        return { ...base, kind: long ? "textarea" : "text" };
      }
    }
  });
  cache.set(type, fields);
  return fields;
}
