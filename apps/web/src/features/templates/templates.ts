import type { DocumentGraph } from "../document/types.ts";
import { templateGraph } from "./build.ts";

/**
 * Starter workflows (issue 27): the gallery's cards. Each is built fresh when chosen, from
 * catalogue nodes and wires that core accepts, and runs to completion on the offline `local`
 * provider as it is (templates.test.ts, e2e/templates.spec.ts). Loaded with the gallery only.
 */
export interface Template {
  id: string;
  title: string;
  /** One line on the card. */
  description: string;
  build(): DocumentGraph;
}

export const TEMPLATES: readonly Template[] = [
  {
    id: "text-image-video",
    title: "Text → Image → Video",
    description: "Write a prompt, generate a key frame, then animate it into a short clip.",
    build: () =>
      templateGraph(({ node, wire }) => {
        const prompt = node("text", [0, 0], {
          label: "Prompt",
          values: { text: "A lighthouse on a rocky coast at golden hour, cinematic wide shot" },
        });
        const motion = node("text", [0, 1.2], {
          label: "Motion",
          values: { text: "Slow push-in, waves crashing, the beam starts to turn" },
        });
        const frame = node("flux-pro", [1, 0], {
          label: "Key frame",
          values: { imageSize: "landscape_16_9" },
        });
        const clip = node("seedance", [2, 0], {
          label: "Clip",
          values: { duration: 4, resolution: "480p" },
        });
        wire(prompt, "text", frame, "prompt");
        wire(frame, "image", clip, "image");
        wire(motion, "text", clip, "prompt");
      }),
  },
  {
    id: "image-3d",
    title: "Image → 3D model",
    description: "Generate a product image and turn it into 3D models with two engines.",
    build: () =>
      templateGraph(({ node, wire }) => {
        const prompt = node("text", [0, 0.6], {
          label: "Prompt",
          values: { text: "A small ceramic fox figurine, product photo, plain white background" },
        });
        const image = node("flux-pro", [1, 0.6], {
          label: "Product image",
          values: { imageSize: "landscape_16_9" },
        });
        const hunyuan = node("3d", [2, 0]);
        const tripo = node("tripo-3d", [2, 2.1]);
        const models = node("3d-container", [3, 1], { label: "Models" });
        wire(prompt, "text", image, "prompt");
        wire(image, "image", hunyuan, "image");
        wire(image, "image", tripo, "image");
        wire(hunyuan, "model", models, "media");
        wire(tripo, "model", models, "media");
      }),
  },
  {
    id: "speech-lip-sync",
    title: "Text → Speech → Lip-sync",
    description: "A script spoken by a generated voice, lip-synced onto an animated presenter.",
    build: () =>
      templateGraph(({ node, wire }) => {
        const look = node("text", [0, 0], {
          label: "Presenter",
          values: { text: "Portrait of a friendly news presenter facing the camera, studio light" },
        });
        const script = node("text", [0, 2.1], {
          label: "Script",
          values: { text: "Good evening! Tonight's forecast: sunshine all weekend long." },
        });
        const portrait = node("flux-pro", [1, 0], {
          label: "Portrait",
          values: { imageSize: "landscape_16_9" },
        });
        const speech = node("elevenlabs-v3", [1, 2.1], { label: "Speech" });
        const video = node("kling-video", [2, 0], {
          label: "Presenter video",
          values: { prompt: "The presenter talks to the camera with subtle head movement" },
        });
        const synced = node("lip-sync", [3, 1]);
        wire(look, "text", portrait, "prompt");
        wire(script, "text", speech, "text");
        wire(portrait, "image", video, "image");
        wire(video, "video", synced, "video");
        wire(speech, "audio", synced, "audio");
      }),
  },
  {
    id: "character-shots",
    title: "Character → several shots",
    description: "One character reference keeps the same person across three different scenes.",
    build: () =>
      templateGraph(({ node, wire }) => {
        const sheet = node("flux-pro", [0, 0.6], {
          label: "Character sheet",
          values: {
            prompt: "Portrait of Mara, a red-haired explorer in a green coat, neutral background",
            imageSize: "square",
          },
        });
        const mara = node("character-reference", [1, 0.6], {
          label: "Mara",
          values: { name: "Mara", description: "a red-haired explorer in a green coat" },
        });
        const market = node("seedream", [2, 0], {
          label: "Shot 1 · market",
          values: {
            prompt: "Mara walks through a rainy night market",
            imageSize: "landscape_16_9",
          },
        });
        const campfire = node("qwen", [3, 0], {
          label: "Shot 2 · campfire",
          values: { prompt: "Mara reads a map by a campfire", imageSize: "landscape_16_9" },
        });
        const boat = node("flux-kontext", [2, 2.1], {
          label: "Shot 3 · boat",
          values: { prompt: "Mara on a sailing boat, wide shot", aspectRatio: "16:9" },
        });
        wire(sheet, "image", mara, "referenceImages");
        wire(mara, "reference", market, "referenceImages");
        wire(mara, "reference", campfire, "referenceImages");
        wire(mara, "reference", boat, "referenceImages");
      }),
  },
  {
    id: "scene-video",
    title: "Scene composer → Video",
    description: "Place a generated image and its 3D model in a scene, capture it, animate it.",
    build: () =>
      templateGraph(({ node, wire }) => {
        const prompt = node("text", [0, 0], {
          label: "Prompt",
          values: { text: "A vintage tin robot toy, studio product photo" },
        });
        const image = node("flux-pro", [1, 0], {
          label: "Robot",
          values: { imageSize: "landscape_16_9" },
        });
        const model = node("3d", [1, 1.9], { label: "Robot model" });
        const scene = node("scene-composer", [2, 0.4]);
        const video = node("kling-video", [3, 0.4], { label: "Scene video" });
        wire(prompt, "text", image, "prompt");
        wire(image, "image", model, "image");
        wire(model, "model", scene, "model");
        wire(image, "image", scene, "image");
        wire(scene, "image", video, "image");
      }),
  },
  {
    id: "list-automation",
    title: "Images from a list",
    description: "Image automation runs a generator once per line of a list.",
    build: () =>
      templateGraph(({ node, wire }) => {
        const list = node("text", [0, 0], {
          label: "Subjects",
          values: { text: "a red fox in the snow\na blue whale at dawn\na green owl in a forest" },
        });
        node("annotation", [0, 1], {
          values: { text: "One image per line: edit the list, then Run all", arrow: "up" },
        });
        const automation = node("image-automation", [1, 0]);
        const images = node("flux-pro", [2, 0], {
          label: "Illustration",
          values: { imageSize: "square" },
        });
        wire(list, "text", automation, "media");
        wire(automation, "items", images, "prompt");
      }),
  },
  {
    id: "upscale-levels",
    title: "Upscale + levels chain",
    description: "Generate, upscale 2×, grade with levels and resize for the web.",
    build: () =>
      templateGraph(({ node, wire }) => {
        const prompt = node("text", [0, 0], {
          label: "Prompt",
          values: { text: "A foggy mountain valley at sunrise, landscape photo" },
        });
        const image = node("flux-pro", [1, 0], { values: { imageSize: "landscape_16_9" } });
        const upscale = node("upscaler", [2, 0], { values: { upscaleFactor: 2 } });
        const grade = node("levels", [3, 0], {
          label: "Grade",
          values: { blackPoint: 12, gamma: 1.1, saturation: 1.25 },
        });
        const web = node("resize", [3, 2], {
          label: "Web size",
          values: { width: 1280, height: 720, fit: "cover" },
        });
        wire(prompt, "text", image, "prompt");
        wire(image, "image", upscale, "image");
        wire(upscale, "image", grade, "image");
        wire(grade, "image", web, "image");
      }),
  },
  {
    id: "notes-board",
    title: "Notes & markdown board",
    description: "A planning board: notes, labels, markdown, and a drafted brief.",
    build: () =>
      templateGraph(({ node, wire }) => {
        node("notepad", [0, 0], {
          label: "Ideas",
          values: {
            text: "Shot list\n- Opening: the coast at dawn\n- Close-up: hands on the map\n- Ending: the boat leaves",
          },
        });
        node("markdown-viewer", [1, 0], {
          label: "Plan",
          values: {
            text: "# Launch plan\n\n1. **Draft** the brief\n2. Generate the key frames\n3. Review with the team\n\n> Notes here never run: they are for people.",
          },
        });
        node("annotation", [2, 0.4], {
          values: { text: "Run all drafts the brief below", arrow: "down" },
        });
        const ask = node("text", [0, 1.5], {
          label: "Ask",
          values: { text: "Write a short creative brief for a coastal travel video" },
        });
        const draft = node("gemini-text", [1, 1.5], { label: "Draft" });
        const brief = node("markdown-viewer", [2, 1.5], { label: "Brief" });
        wire(ask, "text", draft, "prompt");
        wire(draft, "text", brief, "text");
      }),
  },
  {
    id: "music-video",
    title: "Music video",
    description: "A generated clip and a generated song, merged into one video.",
    build: () =>
      templateGraph(({ node, wire }) => {
        const scene = node("text", [0, 0], {
          label: "Scene",
          values: { text: "Neon city streets in the rain, slow tracking shot" },
        });
        const mood = node("text", [0, 2], {
          label: "Music",
          values: { text: "Dreamy synthwave, slow tempo, warm pads" },
        });
        const clip = node("video", [1, 0], { label: "Clip", values: { duration: "4s" } });
        const song = node("minimax-music", [1, 2], { label: "Song" });
        const merged = node("merge-audio-video", [2, 1], { label: "Music video" });
        wire(scene, "text", clip, "prompt");
        wire(mood, "text", song, "prompt");
        wire(clip, "video", merged, "video");
        wire(song, "audio", merged, "media");
      }),
  },
  {
    id: "product-cutout",
    title: "Product cut-out & styles",
    description: "Remove a product photo's background and restyle it, side by side.",
    build: () =>
      templateGraph(({ node, wire }) => {
        const prompt = node("text", [0, 0], {
          label: "Prompt",
          values: { text: "A pair of red sneakers, product photo on a grey floor" },
        });
        const photo = node("flux-pro", [1, 0.5], {
          label: "Product photo",
          values: { imageSize: "landscape_16_9" },
        });
        const cutout = node("bg-remover", [2, 0], { label: "Cut-out" });
        const styled = node("stylizer", [2, 1.9], { values: { targetStyle: "pop_art" } });
        const board = node("container", [3, 0.8], { label: "Board" });
        wire(prompt, "text", photo, "prompt");
        wire(photo, "image", cutout, "image");
        wire(photo, "image", styled, "image");
        wire(cutout, "image", board, "media");
        wire(styled, "image", board, "media");
      }),
  },
];
