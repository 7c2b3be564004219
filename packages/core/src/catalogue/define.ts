/** Small builders that keep the catalogue files readable. */
import { z } from "zod";
import type { PortType } from "../ports/index.ts";
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
) {
  const schema = z.enum(values).default(fallback);
  return description ? schema.describe(description) : schema;
}

export function number(min: number, max: number, fallback: number, description?: string) {
  const schema = z.number().min(min).max(max).default(fallback);
  return description ? schema.describe(description) : schema;
}

export function integer(min: number, max: number, fallback: number, description?: string) {
  const schema = z.number().int().min(min).max(max).default(fallback);
  return description ? schema.describe(description) : schema;
}

export const flag = (fallback: boolean, description?: string) =>
  description ? z.boolean().default(fallback).describe(description) : z.boolean().default(fallback);

export const text = (fallback = "", description?: string) =>
  description ? z.string().default(fallback).describe(description) : z.string().default(fallback);

/** Prompt text typed on the node; a connected prompt input takes precedence. */
export const prompt = () => text("", "Prompt");
export const negativePrompt = () => text("", "What to avoid");
/** Seed: null lets the model pick a random one. */
export const seed = () =>
  z.number().int().min(0).max(4_294_967_295).nullable().default(null).describe("Seed");
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

export const params = z.object;

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
