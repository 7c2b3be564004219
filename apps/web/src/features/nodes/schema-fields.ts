import { getNodeDefinition } from "@atelier/core";
import { z } from "zod";

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
]);
const cache = new Map<string, FieldSpec[]>();

interface JsonProperty {
  type?: string | string[];
  enum?: string[];
  description?: string;
  minimum?: number;
  maximum?: number;
  anyOf?: JsonProperty[];
}

/** The form of a node type, read once from its parameter schema (zod → JSON Schema). */
export function fieldsOf(type: string): FieldSpec[] {
  const cached = cache.get(type);
  if (cached) return cached;
  const definition = getNodeDefinition(type);
  if (!definition) return [];
  const schema = z.toJSONSchema(definition.params, { io: "input" }) as {
    properties?: Record<string, JsonProperty>;
  };
  const fields = Object.entries(schema.properties ?? {}).map(([name, property]): FieldSpec => {
    const plain = property.anyOf?.find((option) => option.type !== "null") ?? property;
    const label = property.description ?? plain.description ?? name;
    const base = { name, label, essential: ESSENTIAL.has(name) };
    if (name === "seed") return { ...base, kind: "seed" };
    if (plain.enum) return { ...base, kind: "select", options: plain.enum };
    if (plain.type === "boolean") return { ...base, kind: "toggle" };
    if (plain.type === "number" || plain.type === "integer") {
      return {
        ...base,
        kind: "number",
        ...(plain.minimum !== undefined ? { min: plain.minimum } : {}),
        ...(plain.maximum !== undefined ? { max: plain.maximum } : {}),
        step: plain.type === "integer" ? 1 : 0.05,
      };
    }
    const long =
      name === "prompt" ||
      name === "text" ||
      name === "lyrics" ||
      name.toLowerCase().includes("prompt");
    return { ...base, kind: long ? "textarea" : "text" };
  });
  cache.set(type, fields);
  return fields;
}
