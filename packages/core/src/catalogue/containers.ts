import type { PortType } from "../ports/index.ts";
import { choice, imageInput, input, output, params, prompt, promptInput, text } from "./define.ts";
import type { NodeDefinition } from "./types.ts";

const node = (definition: Omit<NodeDefinition, "category">): NodeDefinition => ({
  ...definition,
  category: "containers",
});

const gallery = (type: string, displayName: string, portType: PortType): NodeDefinition =>
  node({
    type,
    displayName,
    inputs: [input("media", displayName, portType, { multiple: true })],
    outputs: [output("items", "Items", "array")],
    params: params({ layout: choice(["grid", "list"], "grid", "Layout") }),
    run: { kind: "local", operation: "collect" },
  });

export const containerNodes: NodeDefinition[] = [
  gallery("container", "Image Container", "image"),
  gallery("video-container", "Video Container", "video"),
  gallery("3d-container", "3D Container", "object"),
  gallery("audio-container", "Audio Container", "audio"),
  node({
    type: "group",
    displayName: "Group",
    inputs: [],
    outputs: [],
    params: params({ title: text("Group", "Title") }),
    run: { kind: "none" },
  }),
  node({
    type: "notepad",
    displayName: "Notepad",
    inputs: [],
    outputs: [],
    params: params({ text: text("", "Notes") }),
    run: { kind: "none" },
  }),
  node({
    type: "annotation",
    displayName: "Annotation",
    inputs: [],
    outputs: [],
    params: params({
      text: text("", "Label"),
      arrow: choice(["none", "left", "right", "up", "down"], "none", "Arrow"),
    }),
    run: { kind: "none" },
  }),
  node({
    type: "markdown-viewer",
    displayName: "Markdown",
    inputs: [input("text", "Markdown", "text")],
    outputs: [],
    params: params({ text: text("", "Markdown") }),
    run: { kind: "none" },
  }),
  node({
    type: "image-automation",
    displayName: "Image Automation",
    inputs: [
      input("media", "Items", "any", { required: true, multiple: true }),
      promptInput(false),
    ],
    // Each item's value reaches the wired generator's input, so any input type may take it.
    outputs: [output("items", "Results", "any")],
    params: params({
      prompt: prompt(),
      splitBy: choice(["line", "item"], "line", "Split text by"),
    }),
    run: { kind: "local", operation: "automation" },
  }),
  node({
    type: "scene-composer",
    displayName: "Scene Composer",
    inputs: [
      input("model", "3D models", "object", { multiple: true }),
      input("image", "Images", "image", { multiple: true }),
    ],
    outputs: [output("image", "Capture", "image"), output("camera", "Camera", "object")],
    params: params({
      fov: choice(["35", "50", "85"], "50", "Lens (mm)"),
      background: text("#1f1f23", "Background"),
    }),
    // "Capture" in the browser is its run: the server has nothing to render the scene with.
    run: { kind: "none" },
  }),
  node({
    type: "character-reference",
    displayName: "Character Reference",
    inputs: [
      input("referenceImages", "Reference images", "image", { required: true, multiple: true }),
      input("text", "Description", "text"),
    ],
    // Reference: the image set for a generator's reference images; its description joins
    // that generator's prompt. Nothing to run: it is read from the node's inputs.
    outputs: [output("image", "Key image", "image"), output("reference", "Reference", "image")],
    params: params({ name: text("Character", "Name"), description: text("", "Description") }),
    run: { kind: "none" },
  }),
  node({
    type: "synthetic-humans",
    displayName: "Synthetic Humans",
    inputs: [promptInput(), imageInput()],
    outputs: [output("image", "Portrait", "image"), output("reference", "Reference", "image")],
    params: params({
      prompt: prompt(),
      age: choice(["child", "young adult", "adult", "senior"], "adult", "Age"),
      shot: choice(["headshot", "half-body", "full-body"], "headshot", "Framing"),
    }),
    run: { kind: "provider" },
  }),
];
