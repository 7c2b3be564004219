import { PROVIDER_RUNS } from "./provider-runs.ts";
import type { NodeDefinition, ProviderId } from "./types.ts";

export type RunTarget =
  /** Nothing to run: the node only holds or shows content. */
  | { kind: "none" }
  /** Done by our own server: a local operation, or the offline stand-in for a model. */
  | { kind: "local"; endpoint: string }
  | { kind: "provider"; provider: ProviderId; endpoint: string };

const PROVIDER_IDS: readonly string[] = [
  "fal",
  "runway",
  "luma",
  "google",
  "openai",
  "elevenlabs",
  "freepik",
  "leonardo",
  "meshy",
  "tripo",
  "comfyui",
  "replicate",
];

/** Variant keys chosen by which inputs are connected, most specific first. */
const INPUT_VARIANTS: { key: string; when: (connected: ReadonlySet<string>) => boolean }[] = [
  { key: "first-last-frame", when: (c) => c.has("firstFrame") && c.has("lastFrame") },
  { key: "reference-images", when: (c) => c.has("referenceImages") && !c.has("image") },
  { key: "reference-to-video", when: (c) => c.has("referenceImages") || c.has("video2") },
  { key: "video-to-video", when: (c) => c.has("video1") },
  { key: "image-to-video", when: (c) => c.has("image") || c.has("firstFrame") },
  { key: "multi", when: (c) => c.has("referenceImages") },
  { key: "edit", when: (c) => c.has("image") || c.has("referenceImages") },
  { key: "image-to-image", when: (c) => c.has("image") },
];

/** Parameters whose value may name a variant (e.g. model "ultra", mode "replace"). */
const VARIANT_PARAMS = ["variant", "mode", "model", "version", "modelVersion", "quality"];

/**
 * The parameter a node keeps its chosen provider in (beside its catalogue parameters; absent
 * or empty: the operator's order decides).
 */
export const PROVIDER_PARAM = "provider";

/** The order to choose a provider in: the node's own choice first, then the operator's. */
export function orderFor(params: Record<string, unknown>, order: readonly string[] = []) {
  const chosen = params[PROVIDER_PARAM];
  return typeof chosen === "string" && chosen !== "" ? [chosen, ...order] : order;
}

/**
 * The providers able to run a node type, in the catalogue's order: its own provider, then
 * those its variants name (e.g. `luma`, `comfyui`). Empty for nodes that run no provider.
 */
export function providersOf(type: string): ProviderId[] {
  const run = PROVIDER_RUNS[type];
  if (!run) return [];
  const named = Object.keys(run.variants ?? {}).filter((key) => PROVIDER_IDS.includes(key));
  return [run.provider, ...(named as ProviderId[])];
}

/**
 * Which service runs a node and at which endpoint: among the configured providers able to
 * run it, the first in the operator's `order` (PROVIDER_ORDER), else its own provider, else
 * one a variant names; the endpoint variant picked by its parameters or connected inputs;
 * with no provider configured, the built-in local provider. Node types in `doneLocally`
 * (what this server can do for real itself, e.g. video merges with a local ffmpeg) stay
 * local even when their provider is configured.
 */
export function resolveRunTarget(
  definition: NodeDefinition,
  connected: ReadonlySet<string>,
  params: Record<string, unknown>,
  configured: ReadonlySet<string>,
  doneLocally: ReadonlySet<string> = new Set(),
  order: readonly string[] = [],
): RunTarget {
  if (definition.run.kind === "none") return { kind: "none" };
  if (definition.run.kind === "local")
    return { kind: "local", endpoint: `local/${definition.run.operation}` };
  if (doneLocally.has(definition.type))
    return { kind: "local", endpoint: `local/${definition.type}` };
  const run = PROVIDER_RUNS[definition.type];
  if (!run) throw new Error(`No provider run for node type ${definition.type}`);
  const variants = run.variants ?? {};
  const rank = (id: string) => (order.includes(id) ? order.indexOf(id) : order.length);
  const chosen = providersOf(definition.type)
    .filter((id) => configured.has(id))
    .sort((a, b) => rank(a) - rank(b))[0];
  if (!chosen) return { kind: "local", endpoint: `local/${definition.type}` };
  if (chosen !== run.provider)
    return { kind: "provider", provider: chosen, endpoint: variants[chosen] as string };
  const modes = Object.keys(variants).filter((key) => !PROVIDER_IDS.includes(key));
  const byParam = VARIANT_PARAMS.map((name) => params[name]).find(
    (value) => typeof value === "string" && modes.includes(value),
  ) as string | undefined;
  const byInput = INPUT_VARIANTS.find(
    (variant) => modes.includes(variant.key) && variant.when(connected),
  )?.key;
  // A model choice with connected inputs (e.g. "fast" with an image) has its own endpoint.
  const both = byParam && byInput ? `${byParam}-${byInput}` : null;
  const key = both && variants[both] ? both : (byParam ?? byInput);
  return {
    kind: "provider",
    provider: run.provider,
    endpoint: key ? (variants[key] as string) : run.endpoint,
  };
}
