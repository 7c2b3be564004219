/** Small builders that keep the catalogue files readable. */
import type { PortType } from "../ports/index.ts";
import type { ParamSpec } from "./params.ts";
import type { InputPortDefinition, NodeDefinition, OutputPortDefinition } from "./types.ts";

interface InputOptions {
  required?: boolean;
  multiple?: boolean;
  max?: number;
}

export function input(
  id: string,
  label: string,
  type: PortType,
  options: InputOptions = {},
): InputPortDefinition {
  const port: InputPortDefinition = {
    id,
    label,
    type,
    required: options.required ?? false,
    multiple: options.multiple ?? false,
  };
  if (options.max !== undefined) port.max = options.max;
  return port;
}

export function output(id: string, label: string, type: PortType): OutputPortDefinition {
  return { id, label, type };
}

/** The prompt input of a generator: a text port that a text node feeds. */
export const promptInput = (required = true) => input("prompt", "Prompt", "text", { required });
/** A number port that overrides the seed parameter when connected. */
export const seedInput = () => input("seed", "Seed", "number");
export const imageInput = (options: InputOptions = {}) => input("image", "Image", "image", options);
export const referenceImagesInput = (max?: number) =>
  input(
    "referenceImages",
    "Reference images",
    "image",
    max ? { multiple: true, max } : { multiple: true },
  );

export const imageOutputs = [output("image", "Image", "image")];
export const videoOutputs = [
  output("video", "Video", "video"),
  output("capturedFrame", "Captured frame", "image"),
];
export const modelOutputs = [
  output("model", "3D model", "object"),
  output("snapshot", "Snapshot", "image"),
];
export const audioOutputs = [output("audio", "Audio", "audio")];

/** A string choice with a default. */
export function choice<const T extends readonly [string, ...string[]]>(
  values: T,
  fallback: T[number],
  description?: string,
): ParamSpec {
  return { kind: "choice", values, default: fallback, ...described(description) };
}

const described = (description?: string) => (description ? { description } : {});

export const number = (min: number, max: number, fallback: number, description?: string) =>
  ({
    kind: "number",
    min,
    max,
    default: fallback,
    integer: false,
    ...described(description),
  }) satisfies ParamSpec;

export const integer = (min: number, max: number, fallback: number, description?: string) =>
  ({ ...number(min, max, fallback, description), integer: true }) satisfies ParamSpec;

export const flag = (fallback: boolean, description?: string): ParamSpec => ({
  kind: "flag",
  default: fallback,
  ...described(description),
});

export const text = (fallback = "", description?: string): ParamSpec => ({
  kind: "text",
  default: fallback,
  ...described(description),
});

/** Prompt text typed on the node; a connected prompt input takes precedence. */
export const prompt = () => text("", "Prompt");
export const negativePrompt = () => text("", "What to avoid");
/** Seed: null lets the model pick a random one. */
export const seed = (): ParamSpec => ({ kind: "seed", description: "Seed" });
export const numImages = (max: number) => integer(1, max, 1, "Number of images");

export const IMAGE_SIZES = [
  "square_hd",
  "square",
  "portrait_4_3",
  "portrait_16_9",
  "landscape_4_3",
  "landscape_16_9",
] as const;

export const imageSize = (fallback: (typeof IMAGE_SIZES)[number]) =>
  choice(IMAGE_SIZES, fallback, "Image size");

export { params } from "./params.ts";

/** Inputs shared by several video models. */
export const endFrameInput = () => input("endFrame", "End frame", "image");
export const sourceVideoInput = () => input("video1", "Video", "video", { required: true });

/** An image generator: category and outputs are the family's. */
export const imageGenerator = (
  definition: Omit<NodeDefinition, "category" | "outputs">,
): NodeDefinition => ({
  ...definition,
  category: "image",
  outputs: imageOutputs,
});

/** A video generator: a video plus its captured frame (SPEC §3). */
export const videoGenerator = (
  definition: Omit<NodeDefinition, "category" | "outputs">,
): NodeDefinition => ({
  ...definition,
  category: "video",
  outputs: videoOutputs,
});
