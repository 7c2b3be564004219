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

/** "16:9" → width/height within `longSide`, else the fallback shape. */
function shape(params: Record<string, unknown>, longSide: number, fallback: [number, number]) {
  const ratio = [params.aspectRatio, params.aspect_ratio, params.ratio]
    .map((value) => (typeof value === "string" ? /^(\d+)[:x](\d+)$/.exec(value) : null))
    .find(Boolean);
  const [w, h] = ratio ? [Number(ratio[1]), Number(ratio[2])] : fallback;
  const scale = longSide / Math.max(w, h);
  const even = (value: number) => Math.max(2, Math.round((value * scale) / 2) * 2);
  return { width: even(w), height: even(h) };
}

/** Seconds from a number or "5s"/"5", capped so offline runs stay quick. */
function seconds(value: unknown, fallback: number, cap: number): number {
  const parsed = typeof value === "number" ? value : Number.parseFloat(String(value ?? ""));
  return Math.min(cap, Number.isFinite(parsed) && parsed > 0 ? parsed : fallback);
}

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
        const size = shape(params, 768, [4, 3]);
        const bytes = await renderImage({ prompt, seed, ...size, format: "png" });
        media.push({ output: port.id, bytes, contentType: "image/png" });
        return;
      }
      case "video": {
        const size = shape(params, 320, [16, 9]);
        const video = await renderVideo({
          prompt,
          seed,
          ...size,
          durationSeconds: seconds(params.duration, 2, 3),
          fps: 12,
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
          durationSeconds: seconds(params.duration, 3, 5),
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
