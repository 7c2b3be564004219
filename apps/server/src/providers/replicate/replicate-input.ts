import type { NodeRun } from "../provider.ts";
import { fatalError as fatal } from "../transport.ts";

/*
 * Replicate's side of the catalogue: which official model runs each node type (the
 * catalogue's `replicate` variants), and each model's input object. Field names come from
 * the models' Replicate API pages, as reference/catalogue cites them:
 * - stability-ai/stable-audio-2.5 (3d-audio-processing.md [R1]; version a61ac8ed): prompt,
 *   duration 1–190, steps 4–8, cfg_scale 1–25, seed. Output: one URI.
 * - runwayml/gen4-aleph (video.md [REP-ALEPH]; version 35e570d1): prompt, video,
 *   aspect_ratio, seed, reference_images (up to 3). Output: one URI.
 * - leonardoai/motion-2.0 (video.md [REP-M2]): prompt, image, aspect_ratio, negative_prompt,
 *   frame_interpolation, prompt_enhance. Output: one URI.
 */

/** Messages shown to users (never secrets, URLs or provider internals). */
export const REPLICATE_USER_MESSAGES = {
  failed: "Generation failed",
  keyRejected: "The Replicate API token was rejected",
  refused: "Replicate refused this request for the account",
  unknownEndpoint: "The model was not found on Replicate",
  lost: "Replicate no longer knows this prediction",
  noMedia: "The node's media input is not connected",
  canceled: "The prediction was cancelled on Replicate",
  outcomeUnknown:
    "The provider did not confirm the request; it was not sent again to avoid a second charge",
} as const;

/** What each model makes: its output goes to the node's first port of that type. */
export const REPLICATE_MODELS = {
  "stability-ai/stable-audio-2.5": "audio",
  "runwayml/gen4-aleph": "video",
  "leonardoai/motion-2.0": "video",
} as const;
export type ReplicateModel = keyof typeof REPLICATE_MODELS;

/** Prediction ids (e.g. `ufawqhfynnddngldkgtslldrkq`). */
export const ID_PATTERN = /^[\w-]{1,128}$/;

export const str = (v: unknown): string | undefined =>
  typeof v === "string" && v !== "" ? v : undefined;
const num = (v: unknown): number | undefined =>
  typeof v === "number" && Number.isFinite(v) ? v : undefined;

export function checkModel(endpoint: string): ReplicateModel {
  if (Object.hasOwn(REPLICATE_MODELS, endpoint)) return endpoint as ReplicateModel;
  throw fatal("replicate: unknown model", REPLICATE_USER_MESSAGES.unknownEndpoint);
}

/** Drops undefined fields, so absent optionals take the model's defaults. */
function compact(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

/**
 * Runway's pixel ratios as the plain aspect ratios they are. Others (1584:672, 848:480,
 * 640:480) have no equivalent we can confirm on Replicate: the model's default (16:9) is used.
 */
const ALEPH_ASPECT: Record<string, string> = {
  "1280:720": "16:9",
  "720:1280": "9:16",
  "960:960": "1:1",
  "1104:832": "4:3",
  "832:1104": "3:4",
};

/** Maps our node run to the model's `input` object (the prediction body wraps it). */
export function buildReplicateInput(run: NodeRun): Record<string, unknown> {
  const model = checkModel(run.endpoint);
  const { inputs, params } = run;
  const urls = (id: string) => [inputs[id] ?? []].flat().filter((u) => u !== "");
  const url = (id: string) => urls(id)[0];
  const media = (id: string) => {
    const found = url(id);
    if (!found) throw fatal("replicate: no media input", REPLICATE_USER_MESSAGES.noMedia);
    return found;
  };
  // A connected prompt wins over the typed one; an empty prompt is left out.
  const prompt = str(url("prompt")) ?? str(params.prompt);
  const seed = num(params.seed);
  switch (model) {
    case "stability-ai/stable-audio-2.5":
      return compact({
        prompt,
        duration: num(params.secondsTotal),
        steps: num(params.numInferenceSteps),
        cfg_scale: num(params.guidanceScale),
        seed,
      });
    case "runwayml/gen4-aleph": {
      const refs = urls("referenceImages").slice(0, 3);
      return compact({
        prompt,
        video: media("video1"),
        aspect_ratio: ALEPH_ASPECT[str(params.ratio) ?? ""],
        seed,
        reference_images: refs.length > 0 ? refs : undefined,
      });
    }
    case "leonardoai/motion-2.0":
      return compact({
        prompt,
        image: media("image"),
        aspect_ratio: str(params.aspectRatio),
        negative_prompt: str(params.negativePrompt),
      });
  }
}

/**
 * Progress from a prediction's `logs`: the last tqdm-style percentage (` 45%|████`), or null.
 * Replicate itself reports no progress.
 */
export function progressFromLogs(logs: string | undefined): number | null {
  if (!logs) return null;
  let last: number | null = null;
  for (const match of logs.matchAll(/(\d{1,3})%\|/g)) last = Number(match[1]);
  return last === null || last > 100 ? null : last;
}
