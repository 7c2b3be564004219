import { getNodeDefinition, type OutputPortDefinition } from "@atelier/core";
import type { ProviderResult, ResultMedia } from "../provider.ts";
import { FFMPEG_NODE_TYPES } from "./ffmpeg/merge.ts";
import { runFfmpegNode } from "./ffmpeg/run-node.ts";
import type { LocalRequest, ReadMedia } from "./local-request.ts";
import {
  IMAGE_OPERATIONS,
  processImage,
  renderAudio,
  renderImage,
  renderModel,
  renderText,
  renderVideo,
  seedFrom,
} from "./media/index.ts";
import { audioSettings, imageSettings, videoSettings } from "./settings.ts";

export interface RunLocallyOptions {
  /** A local ffmpeg: the merge nodes are then done for real instead of stood in for. */
  ffmpeg?: string | null;
  /** Stops a running ffmpeg (the job was cancelled). */
  signal?: AbortSignal;
}

/** Processing nodes whose model we stand in for with one of our image operations. */
const IMAGE_STAND_INS: Record<string, string> = {
  "magnific-upscaler": "upscaler",
  "magnific-relight": "levels",
  "virtual-tryon": "stylizer",
};

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Video length for a node with no duration setting (its model's length follows its input). */
const DEFAULT_VIDEO_SECONDS = 2;
/** Audio length for a node with no duration setting (speech, songs). */
const DEFAULT_AUDIO_SECONDS = 3;

/**
 * Makes a node's outputs offline: real files of each output port's kind, the same bytes for
 * the same inputs (DESIGN §1, the `local` provider). With a local ffmpeg, merges are real.
 */
export async function runLocally(
  request: LocalRequest,
  readMedia: ReadMedia,
  options: RunLocallyOptions = {},
): Promise<ProviderResult> {
  const definition = getNodeDefinition(request.nodeType);
  if (!definition) throw new Error(`Unknown node type ${request.nodeType}`);
  if (options.ffmpeg && FFMPEG_NODE_TYPES.has(definition.type))
    return runFfmpegNode(request, readMedia, options.ffmpeg, options.signal);
  const { inputs, params } = request;
  const prompt = String(
    first(inputs.prompt) ?? params.prompt ?? first(inputs.text) ?? params.text ?? "",
  );
  const seed =
    typeof params.seed === "number" ? params.seed : seedFrom(request.nodeType, inputs, params);
  const media: ResultMedia[] = [];
  const values: Record<string, unknown> = {};

  const operation = IMAGE_STAND_INS[definition.type] ?? definition.type;
  const sourceImage = first(inputs.image) ?? first(inputs.human) ?? first(inputs.media);
  const imageOperation =
    (IMAGE_OPERATIONS as readonly string[]).includes(operation) && sourceImage ? operation : null;

  const make = async (port: OutputPortDefinition) => {
    switch (port.type) {
      case "text":
        values[port.id] = renderText({ prompt, seed });
        return;
      case "image": {
        if (port.id === "capturedFrame" || port.id === "snapshot") return; // made with their video / model
        if (imageOperation && sourceImage) {
          const done = await processImage(imageOperation, await readMedia(sourceImage), params);
          media.push({ output: port.id, bytes: done.bytes, contentType: done.contentType });
          return;
        }
        // Several images (numImages) go to the node's main image port, as a provider's do.
        // One after another: six 4K images at once would hold them all in memory together.
        const { count, ...size } = imageSettings(params);
        for (let index = 0; index < (port.id === "image" ? count : 1); index++) {
          const bytes = await renderImage({ prompt, seed: seed + index, ...size, format: "png" });
          media.push({ output: port.id, bytes, contentType: "image/png" });
        }
        return;
      }
      case "video": {
        const video = await renderVideo({
          prompt,
          seed,
          ...videoSettings(params, DEFAULT_VIDEO_SECONDS),
        });
        media.push({ output: port.id, bytes: video.bytes, contentType: video.contentType });
        if (definition.outputs.some((output) => output.id === "capturedFrame"))
          media.push({
            output: "capturedFrame",
            bytes: video.capturedFrame,
            contentType: "image/png",
          });
        return;
      }
      case "object": {
        if (port.id !== "model") {
          values[port.id] = { nodeType: definition.type, seed, params };
          return;
        }
        const model = await renderModel({ prompt, seed });
        media.push({ output: "model", bytes: model.glb, contentType: model.contentType });
        if (definition.outputs.some((output) => output.id === "snapshot"))
          media.push({ output: "snapshot", bytes: model.snapshot, contentType: "image/png" });
        return;
      }
      case "audio": {
        const kind = /music/.test(definition.type)
          ? "music"
          : /sfx|audio/.test(definition.type)
            ? "sfx"
            : "speech";
        const bytes = renderAudio({
          seed,
          ...audioSettings(params, DEFAULT_AUDIO_SECONDS),
          kind,
          prompt,
        });
        media.push({ output: port.id, bytes, contentType: "audio/wav" });
        return;
      }
      default:
        values[port.id] = localValue(definition.type, inputs, params);
    }
  };
  for (const port of definition.outputs) await make(port);
  return { raw: { local: true, nodeType: definition.type }, media, values };
}

/** Non-media outputs of the small local operations (utility, galleries, automation). */
function localValue(
  type: string,
  inputs: Record<string, string | string[]>,
  params: Record<string, unknown>,
): unknown {
  const items = Object.values(inputs).flatMap((value) => (Array.isArray(value) ? value : [value]));
  if (type !== "utility") {
    if (type === "image-automation")
      return items
        .flatMap((item) => (params.splitBy === "item" ? [item] : item.split("\n")))
        .map((line) => line.trim())
        .filter(Boolean);
    return items;
  }
  switch (params.operation) {
    case "join-text":
      return items.join(typeof params.separator === "string" ? params.separator : "\n");
    case "first":
      return items[0] ?? null;
    case "last":
      return items.at(-1) ?? null;
    default:
      return items.length === 1 ? items[0] : items;
  }
}
