import type { Provenance } from "../api/provenance.ts";
import { getNodeDefinition } from "../catalogue/registry.ts";

/**
 * The node a provenance record says made a file, and the parameter values to give it: its
 * parameters, prompt and seed, each kept only when the node type has that parameter and the
 * value passes its spec (a file from elsewhere may say anything). Null for a type the
 * catalogue does not have or that never runs.
 */
export function nodeFromProvenance(
  provenance: Provenance,
): { type: string; values: Record<string, unknown> } | null {
  const definition = provenance.model ? getNodeDefinition(provenance.model) : undefined;
  if (!definition || definition.run.kind === "none") return null;
  const given: Record<string, unknown> = { ...(provenance.parameters ?? {}) };
  if (provenance.prompt !== null) given.prompt = provenance.prompt;
  if (provenance.seed !== null) given.seed = provenance.seed;
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(given)) {
    if (!Object.hasOwn(definition.params.shape, name)) continue;
    if (definition.params.safeParse({ [name]: value }).success) values[name] = value;
  }
  return { type: definition.type, values };
}
