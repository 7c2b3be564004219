import { type MediaOutputKey, type NodeDefinition, PLAIN_MEDIA_OUTPUT_KEY } from "@atelier/core";

/** Media a job stored, by the node's output port. */
export interface StoredOutput {
  port: string;
  url: string;
  contentType: string;
}

/** Video-processing nodes name their result with SPEC §3's more specific keys. */
const VIDEO_KEY: Record<string, MediaOutputKey> = {
  "video-upscaler": "upscaledVideo",
  "merge-videos": "mergedVideo",
  "merge-audio-video": "mergedVideo",
  "luma-modify": "modifiedVideo",
  "video-bg-remover": "processedVideo",
  "lip-sync": "outputVideo",
};

/** The SPEC §3 media output keys (core's media-outputs.ts) a port's media is written under. */
function keysFor(definition: NodeDefinition, port: string, type: string): string[] {
  if (port === "snapshot") return ["snapshot" satisfies MediaOutputKey];
  if (port === "capturedFrame") return ["capturedFrame"];
  const plain = PLAIN_MEDIA_OUTPUT_KEY;
  switch (type) {
    case "image":
      return definition.category === "processing"
        ? ["processedImage" satisfies MediaOutputKey, plain.image]
        : [plain.image];
    case "video": {
      const specific = VIDEO_KEY[definition.type];
      return specific ? [specific, plain.video] : [plain.video];
    }
    case "object":
      return [plain.object, "modelUrl" satisfies MediaOutputKey];
    case "audio":
      return definition.type === "audio-isolation"
        ? ["isolatedAudio" satisfies MediaOutputKey, plain.audio]
        : [plain.audio];
    default:
      return [port];
  }
}

/**
 * A finished job's `outputs` (SPEC media output keys, plus `images` when a port holds
 * several) and `outputValues` (by output port id, what connected inputs read).
 */
export function presentOutputs(
  definition: NodeDefinition,
  media: readonly StoredOutput[],
  values: Record<string, unknown> = {},
): { outputs: Record<string, unknown>; outputValues: Record<string, { value: unknown }> } {
  const outputs: Record<string, unknown> = {};
  const outputValues: Record<string, { value: unknown }> = {};
  for (const port of definition.outputs) {
    const urls = media.filter((item) => item.port === port.id).map((item) => item.url);
    if (urls.length > 0) {
      for (const key of keysFor(definition, port.id, port.type)) outputs[key] ??= urls[0];
      if (port.type === "image" && urls.length > 1) outputs.images = urls;
      outputValues[port.id] = { value: urls.length > 1 ? urls : urls[0] };
    } else if (port.id in values) {
      outputs[port.id] = values[port.id];
      outputValues[port.id] = { value: values[port.id] };
    }
  }
  return { outputs, outputValues };
}
