/** Port data types and the connection compatibility rule of SPEC §3 and §5. */

export const PORT_TYPES = [
  "text",
  "image",
  "video",
  "audio",
  "number",
  "boolean",
  "array",
  "object",
  "any",
] as const;

export type PortType = (typeof PORT_TYPES)[number];

/** The subset of port types that catalogue inputs use (SPEC §3). */
export const CATALOGUE_INPUT_TYPES = [
  "text",
  "image",
  "video",
  "audio",
  "number",
  "object",
  "any",
] as const satisfies readonly PortType[];

export function isPortType(value: unknown): value is PortType {
  return typeof value === "string" && (PORT_TYPES as readonly string[]).includes(value);
}

/**
 * True when a value of type `source` may flow into an input of type `target`:
 * the same type, either side `any`, or number/boolean into text.
 */
export function canConnectTypes(source: PortType, target: PortType): boolean {
  if (source === target) return true;
  if (source === "any" || target === "any") return true;
  if (target === "text" && (source === "number" || source === "boolean")) return true;
  return false;
}
