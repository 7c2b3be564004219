import type { RunNode } from "./run-node.ts";

/** A reusable character: the images a generator takes as references, and who it is. */
export interface CharacterReference {
  name: string;
  description: string;
  images: string[];
}

/** Node types whose `reference` output is a character reference. */
export const REFERENCE_TYPES = new Set(["character-reference", "synthetic-humans"]);

const param = (node: RunNode, name: string) => {
  const value = node.data.inputValues?.[name]?.value;
  return typeof value === "string" ? value.trim() : "";
};

/**
 * The reference a node offers. A character reference is read from what is wired into it
 * (`wired`: its gathered inputs), so it is always current and needs no run; a synthetic
 * human's is its generated portrait, described by its prompt, age and framing.
 */
export function referenceOf(
  node: RunNode,
  wired: Record<string, string | string[]>,
): CharacterReference | null {
  if (node.type === "character-reference") {
    const images = wired.referenceImages ?? [];
    const text = typeof wired.text === "string" ? wired.text.trim() : "";
    return {
      name: param(node, "name") || "Character",
      description: text || param(node, "description"),
      images: Array.isArray(images) ? images : [images],
    };
  }
  if (node.type === "synthetic-humans") {
    const portrait = node.data.outputs?.imageUrl;
    const traits = [param(node, "age"), param(node, "shot")].filter(Boolean).join(", ");
    return {
      name: node.data.label ?? "Synthetic human",
      description: [param(node, "prompt"), traits].filter(Boolean).join(" — "),
      images: typeof portrait === "string" && portrait ? [portrait] : [],
    };
  }
  return null;
}

/** The prompt a generator sends with references: its own, then who each character is. */
export function withCharacters(prompt: string, references: readonly CharacterReference[]): string {
  const lines = references
    .filter((reference) => reference.description)
    .map((reference) => `${reference.name}: ${reference.description}`);
  if (lines.length === 0) return prompt;
  return [prompt.trim(), ...lines].filter(Boolean).join("\n");
}
