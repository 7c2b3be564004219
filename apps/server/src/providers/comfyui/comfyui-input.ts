import { getNodeDefinition } from "@atelier/core";
import type { NodeRun } from "../provider.ts";
import { type Choice, first, list, num, refuse, seedOf, str } from "./choice.ts";
import { VIDEO_CHOOSERS } from "./choose-video.ts";
import threeD from "./templates/3d.json" with { type: "json" };
import threeDMultiview from "./templates/3d-multiview.json" with { type: "json" };
import fluxKontext from "./templates/flux-kontext.json" with { type: "json" };
import fluxKontextEdit from "./templates/flux-kontext-edit.json" with { type: "json" };
import fluxSpro from "./templates/flux-spro.json" with { type: "json" };
import fluxSproImage from "./templates/flux-spro-image.json" with { type: "json" };
import ltx2Video from "./templates/ltx-2-video.json" with { type: "json" };
import ltx2VideoImage from "./templates/ltx-2-video-image.json" with { type: "json" };
import qwen from "./templates/qwen.json" with { type: "json" };
import qwenEdit from "./templates/qwen-edit.json" with { type: "json" };
import qwenEdit2 from "./templates/qwen-edit-2.json" with { type: "json" };
import qwenEdit3 from "./templates/qwen-edit-3.json" with { type: "json" };
import upscaler from "./templates/upscaler.json" with { type: "json" };
import videoUpscaler from "./templates/video-upscaler.json" with { type: "json" };
import wanVideo from "./templates/wan-video.json" with { type: "json" };
import wanVideoImage from "./templates/wan-video-image.json" with { type: "json" };

/*
 * The catalogue nodes ComfyUI runs, each through an API-format workflow kept in ./templates
 * (the JSON ComfyUI's "Export (API)" writes, loadable back into ComfyUI as it is). A string
 * value "{{name}}" is a node parameter filled in here; "{{upload:port}}" is an input file,
 * uploaded at submit and replaced by the name ComfyUI gave it.
 */

/** One node of an API-format prompt. */
export interface ApiNode {
  class_type: string;
  inputs: Record<string, unknown>;
}
export type ApiPrompt = Record<string, ApiNode>;

/** What a job stores as its request: the prompt to send, the files to upload first, the output. */
export interface ComfyRequest {
  template: string;
  /** The node's display name, for messages. */
  model: string;
  prompt: ApiPrompt;
  /** Upload placeholder name → our URL of the file. */
  uploads: Record<string, string>;
  /** The node whose saved files are the result, and the port they fill. */
  output: { node: string; port: string };
}

export { COMFYUI_MESSAGES } from "./messages.ts";

/** A template: the node type it serves, its graph, and where its result comes out. */
export interface Template {
  node: string;
  graph: ApiPrompt;
  output: ComfyRequest["output"];
}
const image = (node: string, graph: ApiPrompt): Template => ({
  node,
  graph,
  output: { node: "10", port: "image" },
});
/** Per node type, its templates; the first is its plain one (no input file). */
export const TEMPLATES: Record<string, Template> = {
  "flux-spro": image("flux-spro", fluxSpro),
  "flux-spro-image": image("flux-spro", fluxSproImage),
  "flux-kontext": image("flux-kontext", fluxKontext),
  "flux-kontext-edit": image("flux-kontext", fluxKontextEdit),
  qwen: image("qwen", qwen),
  // Qwen-Image-Edit-2509 with one, two or three input images (TextEncodeQwenImageEditPlus).
  "qwen-edit": image("qwen", qwenEdit),
  "qwen-edit-2": image("qwen", qwenEdit2),
  "qwen-edit-3": image("qwen", qwenEdit3),
  "wan-video": { node: "wan-video", graph: wanVideo, output: { node: "14", port: "video" } },
  "wan-video-image": {
    node: "wan-video",
    graph: wanVideoImage,
    output: { node: "14", port: "video" },
  },
  "ltx-2-video": { node: "ltx-2-video", graph: ltx2Video, output: { node: "29", port: "video" } },
  "ltx-2-video-image": {
    node: "ltx-2-video",
    graph: ltx2VideoImage,
    output: { node: "29", port: "video" },
  },
  "3d": { node: "3d", graph: threeD, output: { node: "10", port: "model" } },
  "3d-multiview": {
    node: "3d-multiview",
    graph: threeDMultiview,
    output: { node: "10", port: "model" },
  },
  upscaler: { node: "upscaler", graph: upscaler, output: { node: "5", port: "image" } },
  "video-upscaler": {
    node: "video-upscaler",
    graph: videoUpscaler,
    output: { node: "7", port: "video" },
  },
};

/** fal's named image sizes, in pixels. */
const IMAGE_SIZE_PX: Record<string, [number, number]> = {
  square_hd: [1024, 1024],
  square: [512, 512],
  portrait_4_3: [768, 1024],
  portrait_16_9: [576, 1024],
  landscape_4_3: [1024, 768],
  landscape_16_9: [1024, 576],
};
const VIDEO_HEIGHT: Record<string, number> = { "480p": 480, "580p": 576, "720p": 720 };

const multipleOf16 = (value: number) => Math.max(16, Math.round(value / 16) * 16);

/** About a megapixel at `w:h`, both multiples of 16. */
function aspectSize(ratio: string): [number, number] {
  const [w, h] = ratio.split(":").map(Number) as [number, number];
  const width = Math.sqrt((1024 * 1024 * w) / h);
  return [multipleOf16(width), multipleOf16((width * h) / w)];
}

/** A video frame: `height` lines at the ratio (16:9 landscape, 9:16 portrait, 1:1 square). */
function videoSize(resolution: string, ratio: string): [number, number] {
  const lines = VIDEO_HEIGHT[resolution] ?? 720;
  const long = multipleOf16((lines * 16) / 9);
  if (ratio === "9:16") return [lines, long];
  if (ratio === "1:1") return [lines, lines];
  return [long, lines];
}

const imageSizeOf = (params: Record<string, unknown>) =>
  IMAGE_SIZE_PX[str(params.imageSize)] ?? [1024, 768];

/** Per node type: which template, with which values. */
const CHOOSE: Record<string, (run: NodeRun) => Choice> = {
  "flux-spro": (run) => {
    const p = run.params;
    if (run.inputs.controlImage) refuse(run, "FLUX.1 SRPO", "a control image");
    const [width, height] = imageSizeOf(p);
    const values = {
      prompt: str(p.prompt),
      guidance: num(p.guidanceScale, 4.5),
      steps: num(p.numInferenceSteps, 28),
      batch: num(p.numImages, 1),
      seed: seedOf(p),
      width,
      height,
      strength: num(p.strength, 0.95),
    };
    const image = first(run.inputs.image);
    return image
      ? { template: "flux-spro-image", values, uploads: { image } }
      : { template: "flux-spro", values };
  },
  "flux-kontext": (run) => {
    const p = run.params;
    const [width, height] = aspectSize(str(p.aspectRatio, "1:1"));
    const values = {
      prompt: str(p.prompt),
      guidance: num(p.guidanceScale, 3.5),
      batch: num(p.numImages, 1),
      seed: seedOf(p),
      width,
      height,
    };
    const references = run.inputs.referenceImages;
    const image = first(run.inputs.image) ?? first(references);
    const count = (run.inputs.image ? 1 : 0) + (Array.isArray(references) ? references.length : 0);
    if (count > 1) refuse(run, "FLUX.1 Kontext [dev]", "more than one image");
    return image
      ? { template: "flux-kontext-edit", values, uploads: { image } }
      : { template: "flux-kontext", values };
  },
  qwen: (run) => {
    const p = run.params;
    const [width, height] = imageSizeOf(p);
    const values = {
      prompt: str(p.prompt),
      negativePrompt: str(p.negativePrompt),
      guidance: num(p.guidanceScale, 2.5),
      steps: num(p.numInferenceSteps, 30),
      batch: num(p.numImages, 1),
      seed: seedOf(p),
      width,
      height,
    };
    // With images: Qwen-Image-Edit-2509, which takes up to three (image first, then references).
    const images = [...list(run.inputs.image), ...list(run.inputs.referenceImages)];
    if (images.length === 0) return { template: "qwen", values };
    if (images.length > 3) refuse(run, "Qwen Image Edit 2509", "more than three images");
    const uploads = Object.fromEntries(images.map((url, i) => [`image${i + 1}`, url]));
    return {
      template: images.length === 1 ? "qwen-edit" : `qwen-edit-${images.length}`,
      values,
      uploads,
    };
  },
  "wan-video": (run) => {
    const p = run.params;
    if (p.model === "v2.5-preview") refuse(run, "Wan 2.5 preview", "its weights (not released)");
    if (run.inputs.endFrame) refuse(run, "Wan 2.2", "an end frame");
    if (run.inputs.video1) refuse(run, "Wan 2.2", "a source video");
    const [width, height] = videoSize(str(p.resolution, "720p"), str(p.aspectRatio, "16:9"));
    const values = {
      prompt: str(p.prompt),
      negativePrompt: str(p.negativePrompt),
      guidance: num(p.guidanceScale, 3.5),
      frames: num(p.numFrames, 81),
      fps: num(p.framesPerSecond, 16),
      seed: seedOf(p),
      width,
      height,
    };
    const image = first(run.inputs.image);
    return image
      ? { template: "wan-video-image", values, uploads: { image } }
      : { template: "wan-video", values };
  },
  "3d": (run) => {
    const p = run.params;
    if (p.texturedMesh === true)
      refuse(run, "Hunyuan3D 2.0", "a textured mesh (ComfyUI's nodes make untextured meshes)");
    const image = first(run.inputs.image);
    if (!image) refuse(run, "Hunyuan3D 2.0", "no image");
    return {
      template: "3d",
      values: {
        seed: seedOf(p),
        steps: num(p.numInferenceSteps, 50),
        guidance: num(p.guidanceScale, 7.5),
        octree: num(p.octreeResolution, 256),
      },
      uploads: { image },
    };
  },
  "3d-multiview": (run) => {
    const p = run.params;
    const model = "Hunyuan3D 2.0 multi-view";
    if (p.texturedMesh === true)
      refuse(run, model, "a textured mesh (ComfyUI's nodes make untextured meshes)");
    const front = first(run.inputs.frontView);
    const back = first(run.inputs.backView);
    const left = first(run.inputs.leftView);
    if (!front || !back || !left) refuse(run, model, "a view missing");
    return {
      template: "3d-multiview",
      values: {
        seed: seedOf(p),
        steps: num(p.numInferenceSteps, 50),
        guidance: num(p.guidanceScale, 7.5),
        octree: num(p.octreeResolution, 256),
      },
      uploads: { front, back, left },
    };
  },
  "video-upscaler": (run) => {
    if (run.params.model !== "realesrgan")
      refuse(run, `the ${String(run.params.model)} model`, "open weights (choose Real-ESRGAN)");
    const video = first(run.inputs.video);
    if (!video) refuse(run, "Real-ESRGAN", "no video");
    return {
      template: "video-upscaler",
      values: { scaleBy: num(run.params.upscaleFactor, 2) / 4 },
      uploads: { video },
    };
  },
  upscaler: (run) => {
    const image = first(run.inputs.image);
    if (!image) refuse(run, "Real-ESRGAN", "no image");
    // The model upscales 4×; the requested scale is reached by resampling that.
    return {
      template: "upscaler",
      values: { scaleBy: num(run.params.upscaleFactor, 2) / 4 },
      uploads: { image },
    };
  },
  ...VIDEO_CHOOSERS,
};

/** The node types ComfyUI templates cover. */
export const COMFYUI_NODE_TYPES: ReadonlySet<string> = new Set(Object.keys(CHOOSE));

/** Replaces every "{{name}}" string in the graph's inputs with its value. */
function fill(graph: ApiPrompt, values: Record<string, unknown>): ApiPrompt {
  const filled: ApiPrompt = {};
  for (const [id, node] of Object.entries(graph)) {
    const inputs: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(node.inputs)) {
      const key = typeof value === "string" ? /^\{\{(\w+)\}\}$/.exec(value)?.[1] : undefined;
      if (key !== undefined && !(key in values))
        throw new Error(`comfyui template value ${key} missing`);
      inputs[name] = key === undefined ? value : values[key];
    }
    filled[id] = { class_type: node.class_type, inputs };
  }
  return filled;
}

/** The request a node run sends to ComfyUI (uploads still as placeholders). */
export function buildComfyInput(run: NodeRun): ComfyRequest {
  const choose = CHOOSE[run.nodeType];
  if (!choose) refuse(run, run.nodeType, "this node type");
  const choice = choose(run);
  const template = TEMPLATES[choice.template];
  if (!template) throw new Error(`comfyui template ${choice.template} missing`);
  return {
    template: choice.template,
    model: getNodeDefinition(run.nodeType)?.displayName ?? run.nodeType,
    prompt: fill(template.graph, choice.values),
    uploads: choice.uploads ?? {},
    output: template.output,
  };
}

/** Replaces "{{upload:name}}" values with the file names ComfyUI gave the uploads. */
export function withUploads(prompt: ApiPrompt, names: Record<string, string>): ApiPrompt {
  const out: ApiPrompt = {};
  for (const [id, node] of Object.entries(prompt)) {
    const inputs: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(node.inputs)) {
      const key = typeof value === "string" ? /^\{\{upload:(\w+)\}\}$/.exec(value)?.[1] : undefined;
      inputs[name] = key !== undefined ? names[key] : value;
    }
    out[id] = { class_type: node.class_type, inputs };
  }
  return out;
}
