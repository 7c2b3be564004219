import type { NodeRun } from "../provider.ts";

/**
 * Our input ids → fal's usual field names (reference/catalogue §0.2). Models that differ
 * get their field from this table's exceptions; the rest of fal's inputs are the node's
 * parameters in snake_case.
 */
const FIELD_OF_INPUT: Record<string, string> = {
  image: "image_url",
  endFrame: "end_image_url",
  firstFrame: "first_frame_url",
  lastFrame: "last_frame_url",
  referenceImages: "image_urls",
  controlImage: "control_image_url",
  structureReference: "structure_reference_url",
  styleReference: "style_reference_url",
  textureImage: "texture_image_url",
  human: "human_image_url",
  garment: "garment_image_url",
  video1: "video_url",
  video2: "reference_video_urls",
  video: "video_url",
  audio: "audio_url",
  frontView: "front_image_url",
  backView: "back_image_url",
  leftView: "left_image_url",
  rightView: "right_image_url",
  model: "model_url",
  lyrics: "lyrics",
  text: "text",
};

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** fal's ffmpeg-api merges take their inputs under names of their own (catalogue §merge). */
const MERGES: Record<string, (run: NodeRun) => Record<string, unknown>> = {
  "merge-videos": ({ inputs, params }) => ({
    video_urls: [one(inputs.video1), one(inputs.video2)],
    // 0 means "the lowest of the inputs", which is fal's own default.
    ...(typeof params.targetFps === "number" && params.targetFps > 0
      ? { target_fps: params.targetFps }
      : {}),
  }),
  "merge-audio-video": ({ inputs, params }) => ({
    video_url: one(inputs.video),
    audio_url: one(inputs.media),
    start_offset: typeof params.startOffset === "number" ? params.startOffset : 0,
  }),
};

/** fal's request body for a node run: parameters in snake_case, then the connected inputs. */
export function buildFalInput(run: NodeRun): Record<string, unknown> {
  const merge = MERGES[run.nodeType];
  if (merge) return merge(run);
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(run.params)) {
    if (value === undefined || value === null || value === "") continue;
    body[snake(name)] = value;
  }
  for (const [id, value] of Object.entries(run.inputs)) {
    if (id === "prompt") {
      body.prompt = value; // a connected text wins over the node's own prompt field
      continue;
    }
    if (id === "media") {
      const first = Array.isArray(value) ? value[0] : value;
      body[/\.(png|jpe?g|webp|gif)(\?|$)/i.test(String(first)) ? "image_url" : "video_url"] = first;
      continue;
    }
    const field = FIELD_OF_INPUT[id] ?? `${snake(id)}_url`;
    body[field] = field.endsWith("_urls") && !Array.isArray(value) ? [value] : value;
  }
  return body;
}
