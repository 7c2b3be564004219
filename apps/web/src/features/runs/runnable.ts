import { getNodeDefinition } from "@atelier/core";

/** True for catalogue types that have something to run (`run.kind !== "none"`). */
export function isRunnable(type: string | undefined): boolean {
  const definition = type ? getNodeDefinition(type) : undefined;
  return Boolean(definition && definition.run.kind !== "none");
}
