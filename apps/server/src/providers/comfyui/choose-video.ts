import type { NodeRun } from "../provider.ts";
import { type Choice, first, refuse, seedOf, str } from "./choice.ts";

/* Template choices for the video nodes added beside comfyui-input.ts's (kept apart to keep
 * that file readable). */

/** LTX-2's 16:9 frame heights (the catalogue's resolutions; fal offers 16:9 only). */
const LTX_LINES: Record<string, number> = { "1080p": 1080, "1440p": 1440, "2160p": 2160 };

const multipleOf32 = (value: number) => Math.max(32, Math.round(value / 32) * 32);

/**
 * The size of LTX-2's first pass: half the frame, sides multiples of 32 (EmptyLTXVLatentVideo's
 * step); the spatial upscaler then doubles it (1080p: 960×544 sampled, 1920×1088 out).
 */
export function ltxFirstPass(resolution: string): [number, number] {
  const lines = LTX_LINES[resolution] ?? 1080;
  return [multipleOf32((lines * 16) / 9 / 2), multipleOf32(lines / 2)];
}

/** Frames for `seconds` at `fps`, rounded to LTX's 8n + 1 (6 s at 25 fps: 153). */
export const ltxFrames = (seconds: number, fps: number) =>
  Math.max(1, Math.round((seconds * fps) / 8)) * 8 + 1;

export const VIDEO_CHOOSERS: Record<string, (run: NodeRun) => Choice> = {
  "ltx-2-video": (run) => {
    const p = run.params;
    const model = "LTX-2";
    if (p.model === "fast") refuse(run, model, "the Fast model (choose Standard)");
    if (p.generateAudio === false)
      refuse(run, model, "no sound (its ComfyUI workflow always makes the soundtrack)");
    if (run.inputs.video1) refuse(run, model, "a video to retake");
    const fps = Number(str(p.fps, "25")) || 25;
    const seconds = Number(str(p.duration, "6")) || 6;
    const [width, height] = ltxFirstPass(str(p.resolution, "1080p"));
    const values = {
      prompt: str(p.prompt),
      fps,
      frames: ltxFrames(seconds, fps),
      seed: seedOf(p),
      width,
      height,
    };
    const image = first(run.inputs.image);
    return image
      ? { template: "ltx-2-video-image", values, uploads: { image } }
      : { template: "ltx-2-video", values };
  },
};
