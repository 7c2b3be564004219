import type { ApiPrompt } from "./comfyui-input.ts";

/** `GET /object_info`: every node class the instance has, with its input specs. */
export type ObjectInfo = Record<
  string,
  { input?: { required?: Record<string, unknown>; optional?: Record<string, unknown> } }
>;

/** Inputs that name a model file (the rest of the combos are plain choices). */
const MODEL_INPUTS = /(_name\d?|^ckpt_name|^model_name)$/;

/**
 * A combo input's choices: `[["a", "b"], {…}]` (the classic form) or
 * `["COMBO", {options: ["a", "b"]}]` (the newer one); null for any other input.
 */
function choicesOf(spec: unknown): string[] | null {
  if (!Array.isArray(spec)) return null;
  if (Array.isArray(spec[0])) return spec[0].filter((item) => typeof item === "string");
  const options = (spec[1] as { options?: unknown } | undefined)?.options;
  return spec[0] === "COMBO" && Array.isArray(options) ? options.map(String) : null;
}

/**
 * What a prompt needs that this ComfyUI lacks, for people: node classes it does not have
 * (a custom node or a newer ComfyUI) and model files or choices its combos do not list.
 * Uploads are skipped: their file does not exist before submit.
 */
export function missingFor(prompt: ApiPrompt, info: ObjectInfo): string[] {
  const missing = new Set<string>();
  for (const node of Object.values(prompt)) {
    const spec = info[node.class_type];
    if (!spec) {
      missing.add(`the node ${node.class_type} (a newer ComfyUI or a custom node)`);
      continue;
    }
    for (const [name, value] of Object.entries(node.inputs)) {
      if (typeof value !== "string" || value.startsWith("{{upload:")) continue;
      const choices = choicesOf(spec.input?.required?.[name] ?? spec.input?.optional?.[name]);
      if (!choices || choices.includes(value)) continue;
      missing.add(
        MODEL_INPUTS.test(name)
          ? `the model file ${value} (${node.class_type} ${name})`
          : `${name} "${value}" on ${node.class_type}`,
      );
    }
  }
  return [...missing];
}
