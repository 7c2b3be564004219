import {
  choice,
  endFrameInput,
  flag,
  imageInput,
  input,
  integer,
  negativePrompt,
  params,
  prompt,
  promptInput,
  referenceImagesInput,
  seed,
  sourceVideoInput,
  videoGenerator,
} from "./define.ts";
import type { NodeDefinition } from "./types.ts";

const endFrame = endFrameInput;
const video1 = sourceVideoInput;

const gen = videoGenerator;

/** Video models served by their vendors' own APIs (Runway, Luma, Leonardo, OpenAI). */
export const videoVendorNodes: NodeDefinition[] = [
  gen({
    type: "runway-video",
    displayName: "Runway Gen-4",
    inputs: [promptInput(false), imageInput({ required: true })],
    params: params({
      prompt: prompt(),
      model: choice(["gen4_turbo"], "gen4_turbo", "Model"),
      duration: integer(2, 10, 5, "Duration (s)"),
      ratio: choice(
        ["1280:720", "720:1280", "1104:832", "832:1104", "960:960", "1584:672"],
        "1280:720",
        "Ratio",
      ),
      seed: seed(),
    }),
    run: { kind: "provider" },
  }),
  gen({
    type: "runway-aleph",
    displayName: "Runway Aleph",
    inputs: [promptInput(), video1(), referenceImagesInput(1)],
    params: params({
      prompt: prompt(),
      model: choice(["aleph2", "gen4_aleph"], "aleph2", "Model"),
      ratio: choice(
        [
          "1280:720",
          "720:1280",
          "1104:832",
          "960:960",
          "832:1104",
          "1584:672",
          "848:480",
          "640:480",
        ],
        "1280:720",
        "Ratio",
      ),
      seed: seed(),
    }),
    run: { kind: "provider" },
  }),
  gen({
    type: "luma-ray",
    displayName: "Luma Ray 2",
    inputs: [promptInput(), imageInput(), endFrame()],
    params: params({
      prompt: prompt(),
      model: choice(["ray-2", "ray-2-flash"], "ray-2", "Model"),
      duration: choice(["5s", "9s"], "5s", "Duration"),
      aspectRatio: choice(["16:9", "9:16", "4:3", "3:4", "21:9", "9:21"], "16:9", "Aspect ratio"),
      resolution: choice(["540p", "720p", "1080p"], "540p", "Resolution"),
      loop: flag(false, "Loop"),
    }),
    run: { kind: "provider" },
  }),
  gen({
    type: "luma-modify",
    displayName: "Luma Modify",
    inputs: [
      promptInput(false),
      input("media", "Video", "video", { required: true }),
      imageInput(),
    ],
    params: params({
      prompt: prompt(),
      mode: choice(
        [
          "adhere_1",
          "adhere_2",
          "adhere_3",
          "flex_1",
          "flex_2",
          "flex_3",
          "reimagine_1",
          "reimagine_2",
          "reimagine_3",
        ],
        "flex_1",
        "Mode",
      ),
    }),
    run: { kind: "provider" },
  }),
  gen({
    type: "luma-reframe",
    displayName: "Luma Reframe",
    inputs: [promptInput(false), input("media", "Video", "video", { required: true })],
    params: params({
      prompt: prompt(),
      aspectRatio: choice(
        ["1:1", "16:9", "9:16", "4:3", "3:4", "21:9", "9:21"],
        "16:9",
        "Aspect ratio",
      ),
    }),
    run: { kind: "provider" },
  }),
  gen({
    type: "motion-2",
    displayName: "Motion 2.0",
    inputs: [promptInput(false), imageInput({ required: true })],
    params: params({
      prompt: prompt(),
      negativePrompt: negativePrompt(),
      aspectRatio: choice(["16:9", "9:16", "2:3", "4:5"], "16:9", "Aspect ratio"),
    }),
    run: { kind: "provider" },
  }),
  gen({
    type: "sora-video",
    displayName: "Sora 2",
    inputs: [promptInput(), imageInput()],
    params: params({
      prompt: prompt(),
      model: choice(["sora-2", "sora-2-pro"], "sora-2", "Model"),
      seconds: choice(["4", "8", "12"], "4", "Duration (s)"),
      size: choice(["720x1280", "1280x720", "1024x1792", "1792x1024"], "720x1280", "Size"),
    }),
    run: { kind: "provider" },
  }),
];
