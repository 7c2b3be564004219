import { MEDIA_OUTPUT_KEYS } from "../catalogue/media-outputs.ts";

function isFilled(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === "string") return value.trim().length > 0;
  if (Array.isArray(value)) return value.some(isFilled);
  if (typeof value === "object") {
    const url = (value as { url?: unknown }).url;
    if (url !== undefined) return isFilled(url);
    const inner = (value as { value?: unknown }).value;
    if (inner !== undefined) return isFilled(inner);
    return Object.keys(value).length > 0;
  }
  return true;
}

type Slots = Record<string, { value?: unknown } | undefined>;

/**
 * True when a node already holds content for one of its outputs: a value in
 * `outputValues`/`outputs` under the output id, a media key of SPEC §3 in `outputs`,
 * or — for a text output — the text typed into the node.
 */
export function hasOutputContent(
  data: Record<string, unknown> | undefined,
  outputId: string,
  outputType: string,
): boolean {
  if (!data) return false;
  const outputValues = (data.outputValues ?? {}) as Slots;
  const outputs = (data.outputs ?? {}) as Record<string, unknown>;
  if (isFilled(outputValues[outputId]?.value) || isFilled(outputs[outputId])) return true;
  if (outputType === "image" || outputType === "video") {
    if (MEDIA_OUTPUT_KEYS.some((key) => isFilled(outputs[key]))) return true;
  }
  if (outputType === "text") {
    const inputValues = (data.inputValues ?? {}) as Slots;
    if (isFilled(inputValues.text?.value) || isFilled(data.text)) return true;
  }
  return false;
}
