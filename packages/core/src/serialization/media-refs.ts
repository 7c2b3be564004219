/** Media refs: "id|path|nodeId|outputKey|type" strings kept in workflow metadata (SPEC §3). */

export interface MediaRef {
  id: string;
  path: string;
  nodeId: string;
  outputKey: string;
  type: string;
}

const SEPARATOR = "|";
const FIELDS = ["id", "path", "nodeId", "outputKey", "type"] as const;

/** Splits a media ref; null when it does not have exactly five non-empty parts. */
export function parseMediaRef(ref: string): MediaRef | null {
  if (typeof ref !== "string") return null;
  const parts = ref.split(SEPARATOR);
  if (parts.length !== FIELDS.length || parts.some((part) => part.length === 0)) return null;
  const [id, path, nodeId, outputKey, type] = parts as [string, string, string, string, string];
  return { id, path, nodeId, outputKey, type };
}

/**
 * Joins the parts of a media ref, given as an object or as [id, path, nodeId, outputKey,
 * type]; throws when a part is missing, empty or contains "|".
 */
export function formatMediaRef(parts: MediaRef | readonly string[]): string {
  if (Array.isArray(parts) && parts.length !== FIELDS.length) {
    throw new Error(`A media ref has ${FIELDS.length} parts, got ${parts.length}`);
  }
  const values = Array.isArray(parts)
    ? [...parts]
    : FIELDS.map((field) => (parts as MediaRef)[field]);
  values.forEach((part, index) => {
    if (typeof part !== "string" || part.length === 0 || part.includes(SEPARATOR)) {
      throw new Error(`Invalid media ref ${FIELDS[index]}: ${JSON.stringify(part)}`);
    }
  });
  return values.join(SEPARATOR);
}
