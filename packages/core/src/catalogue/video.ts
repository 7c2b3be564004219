import {
  choice,
  endFrameInput,
  flag,
  imageInput,
  input,
  integer,
  negativePrompt,
  number,
  params,
  prompt,
  promptInput,
  referenceImagesInput,
  seed,
  seedInput,
  sourceVideoInput,
  text,
  videoGenerator,
} from "./define.ts";
import type { NodeDefinition } from "./types.ts";

const endFrame = endFrameInput;
const video1 = sourceVideoInput;
const PORTRAIT_LANDSCAPE = ["16:9", "9:16"] as const;

const gen = videoGenerator;

export const videoNodes: NodeDefinition[] = [
  gen({
    type: "video",
    displayName: "Video",
    inputs: [promptInput(), imageInput(), seedInput()],
    params: params({
      prompt: prompt(),
      aspectRatio: choice(PORTRAIT_LANDSCAPE, "16:9", "Aspect ratio"),
      duration: choice(["4s", "6s", "8s"], "8s", "Duration"),
      resolution: choice(["720p", "1080p"], "720p", "Resolution"),
      generateAudio: flag(true, "Generate audio"),
      seed: seed(),
    }),
    run: { kind: "provider" },
  }),
  gen({
    type: "veo-video",
    displayName: "Veo 2",
    inputs: [promptInput(), imageInput()],
    params: params({
      prompt: prompt(),
      negativePrompt: negativePrompt(),
      aspectRatio: choice(["auto", "16:9", "9:16"], "16:9", "Aspect ratio"),
      duration: choice(["5s", "6s", "7s", "8s"], "5s", "Duration"),
      enhancePrompt: flag(true, "Enhance prompt"),
      seed: seed(),
    }),
    run: { kind: "provider" },
    lifecycle: {
      status: "retired",
      message: "Google retired Veo 2 on 2026-06-30. Use Veo 3.1 instead.",
      successor: "veo31-video",
    },
  }),
  gen({
    type: "veo3-video",
    displayName: "Veo 3",
    inputs: [promptInput(), imageInput()],
    params: params({
      prompt: prompt(),
      negativePrompt: negativePrompt(),
      model: choice(["standard", "fast"], "standard", "Model"),
      aspectRatio: choice(["auto", "16:9", "9:16"], "16:9", "Aspect ratio"),
      duration: choice(["4s", "6s", "8s"], "8s", "Duration"),
      resolution: choice(["720p", "1080p"], "720p", "Resolution"),
      generateAudio: flag(true, "Generate audio"),
      seed: seed(),
    }),
    run: { kind: "provider" },
    lifecycle: {
      status: "retired",
      message: "Google retired Veo 3.0 on 2026-06-30. Use Veo 3.1 instead.",
      successor: "veo31-video",
    },
  }),
  gen({
    type: "veo31-video",
    displayName: "Veo 3.1",
    inputs: [
      promptInput(),
      imageInput(),
      input("firstFrame", "First frame", "image"),
      input("lastFrame", "Last frame", "image"),
      referenceImagesInput(3),
    ],
    params: params({
      prompt: prompt(),
      negativePrompt: negativePrompt(),
      model: choice(["standard", "fast", "lite"], "standard", "Model"),
      aspectRatio: choice(["auto", "16:9", "9:16"], "16:9", "Aspect ratio"),
      duration: choice(["4s", "6s", "8s"], "8s", "Duration"),
      resolution: choice(["720p", "1080p", "4k"], "720p", "Resolution"),
      generateAudio: flag(true, "Generate audio"),
      seed: seed(),
    }),
    run: { kind: "provider" },
  }),
  gen({
    type: "vidu-q2",
    displayName: "Vidu Q2",
    inputs: [
      promptInput(),
      imageInput(),
      endFrame(),
      referenceImagesInput(7),
      input("video1", "Reference video 1", "video"),
      input("video2", "Reference video 2", "video"),
    ],
    params: params({
      prompt: prompt(),
      duration: integer(2, 8, 4, "Duration (s)"),
      resolution: choice(["360p", "520p", "720p", "1080p"], "720p", "Resolution"),
      aspectRatio: choice(["16:9", "9:16", "1:1"], "16:9", "Aspect ratio"),
      movementAmplitude: choice(["auto", "small", "medium", "large"], "auto", "Movement"),
      bgm: flag(false, "Background music (4 s only)"),
      seed: seed(),
    }),
    run: { kind: "provider" },
  }),
  gen({
    type: "ltx-2-video",
    displayName: "LTX-2",
    inputs: [promptInput(), imageInput(), input("video1", "Video to retake", "video")],
    params: params({
      prompt: prompt(),
      model: choice(["standard", "fast"], "standard", "Model"),
      duration: choice(["6", "8", "10"], "6", "Duration (s)"),
      resolution: choice(["1080p", "1440p", "2160p"], "1080p", "Resolution"),
      fps: choice(["25", "50"], "25", "Frames per second"),
      generateAudio: flag(true, "Generate audio"),
    }),
    run: { kind: "provider" },
    lifecycle: {
      status: "at-risk",
      message: "LTX-2 endpoints are missing from the provider's newest model list.",
      successor: "veo31-video",
    },
  }),
  gen({
    type: "hailuo",
    displayName: "Hailuo 02",
    inputs: [promptInput(), imageInput(), endFrame()],
    params: params({
      prompt: prompt(),
      model: choice(["standard", "pro"], "standard", "Model"),
      duration: choice(["6", "10"], "6", "Duration (s)"),
      resolution: choice(["512P", "768P"], "768P", "Resolution"),
      promptOptimizer: flag(true, "Prompt optimizer"),
    }),
    run: { kind: "provider" },
  }),
  gen({
    type: "seedance",
    displayName: "Seedance 1.0",
    inputs: [promptInput(), imageInput(), endFrame(), referenceImagesInput(4)],
    params: params({
      prompt: prompt(),
      model: choice(["pro", "lite"], "pro", "Model"),
      duration: integer(2, 12, 5, "Duration (s)"),
      resolution: choice(["480p", "720p", "1080p"], "1080p", "Resolution"),
      aspectRatio: choice(
        ["21:9", "16:9", "4:3", "1:1", "3:4", "9:16", "auto"],
        "16:9",
        "Aspect ratio",
      ),
      cameraFixed: flag(false, "Fixed camera"),
      seed: seed(),
    }),
    run: { kind: "provider" },
  }),
  gen({
    type: "wan-video",
    displayName: "Wan 2.2",
    inputs: [promptInput(), imageInput(), endFrame(), input("video1", "Source video", "video")],
    params: params({
      prompt: prompt(),
      negativePrompt: negativePrompt(),
      model: choice(["v2.2-a14b", "v2.5-preview"], "v2.2-a14b", "Model"),
      numFrames: integer(17, 161, 81, "Frames"),
      framesPerSecond: integer(4, 60, 16, "Frames per second"),
      resolution: choice(["480p", "580p", "720p"], "720p", "Resolution"),
      aspectRatio: choice(["16:9", "9:16", "1:1"], "16:9", "Aspect ratio"),
      guidanceScale: number(1, 10, 3.5, "Guidance"),
      seed: seed(),
    }),
    run: { kind: "provider" },
  }),
  gen({
    type: "wan-animate",
    displayName: "Wan Animate",
    inputs: [video1(), imageInput({ required: true })],
    params: params({
      mode: choice(["move", "replace"], "move", "Mode"),
      resolution: choice(["480p", "580p", "720p"], "480p", "Resolution"),
      guidanceScale: number(1, 10, 1, "Guidance"),
      seed: seed(),
    }),
    run: { kind: "provider" },
  }),
  gen({
    type: "kling-video",
    displayName: "Kling",
    inputs: [promptInput(), imageInput(), endFrame()],
    params: params({
      prompt: prompt(),
      negativePrompt: text("blur, distort, and low quality"),
      model: choice(["v2.1-master", "v2.1-pro", "v2.1-standard"], "v2.1-master", "Model"),
      duration: choice(["5", "10"], "5", "Duration (s)"),
      aspectRatio: choice(["16:9", "9:16", "1:1"], "16:9", "Aspect ratio"),
      cfgScale: number(0, 1, 0.5, "Guidance"),
    }),
    run: { kind: "provider" },
  }),
  gen({
    type: "moonvalley",
    displayName: "Marey",
    inputs: [
      promptInput(),
      imageInput(),
      input("video1", "Motion video", "video"),
      referenceImagesInput(1),
    ],
    params: params({
      prompt: prompt(),
      negativePrompt: negativePrompt(),
      duration: choice(["5s", "10s"], "5s", "Duration"),
      dimensions: choice(
        ["1920x1080", "1152x1152", "1536x1152", "1152x1536", "1080x1920"],
        "1920x1080",
        "Dimensions",
      ),
      guidanceScale: number(0, 20, 7, "Guidance"),
      seed: randomOrFixedSeed(),
    }),
    run: { kind: "provider" },
  }),
];

/** Marey takes -1 as "random seed". */
function randomOrFixedSeed() {
  return integer(-1, 4_294_967_295, -1, "Seed (-1 for random)");
}
