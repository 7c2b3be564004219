import type { NodeDefinition } from "@atelier/core";
import { CATEGORY_LABELS } from "./categories.ts";

/** True when every word of the query is in the node's name, type, family or description. */
export function matches(definition: NodeDefinition, query: string, description = ""): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const haystack =
    `${definition.displayName} ${definition.type} ${CATEGORY_LABELS[definition.category]} ${description}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}
