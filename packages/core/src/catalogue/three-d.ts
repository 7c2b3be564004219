import {
  choice,
  flag,
  imageInput,
  input,
  integer,
  modelOutputs,
  number,
  params,
  promptInput,
  seed,
  text,
} from "./define.ts";
import type { NodeDefinition } from "./types.ts";

const view = (id: string, label: string) => input(id, label, "image", { required: true });

const hunyuanParams = () =>
  params({
    texturedMesh: flag(false, "Textured mesh (3× cost)"),
    octreeResolution: integer(1, 1024, 256, "Octree resolution"),
    numInferenceSteps: integer(1, 50, 50, "Steps"),
    guidanceScale: number(0, 20, 7.5, "Guidance"),
    seed: seed(),
  });

const tripoParams = () =>
  params({
    texture: flag(true, "Texture"),
    pbr: flag(true, "PBR materials"),
    textureQuality: choice(["standard", "detailed"], "standard", "Texture quality"),
    faceLimit: integer(0, 500_000, 0, "Face limit (0 = adaptive)"),
    orientation: choice(["default", "align_image"], "default", "Orientation"),
    seed: seed(),
  });

const gen = (definition: Omit<NodeDefinition, "category" | "outputs">): NodeDefinition => ({
  ...definition,
  category: "3d",
  outputs: modelOutputs,
});

export const threeDNodes: NodeDefinition[] = [
  gen({
    type: "3d",
    displayName: "Hunyuan 3D",
    inputs: [imageInput({ required: true })],
    params: hunyuanParams(),
    run: { kind: "provider" },
  }),
  gen({
    type: "3d-multiview",
    displayName: "Hunyuan 3D Multi-view",
    inputs: [
      view("frontView", "Front view"),
      view("backView", "Back view"),
      view("leftView", "Left view"),
    ],
    params: hunyuanParams(),
    run: { kind: "provider" },
  }),
  gen({
    type: "tripo-3d",
    displayName: "Tripo 3D",
    inputs: [imageInput({ required: true })],
    params: tripoParams(),
    run: { kind: "provider" },
  }),
  gen({
    type: "tripo-3d-multiview",
    displayName: "Tripo 3D Multi-view",
    inputs: [
      view("frontView", "Front view"),
      view("leftView", "Left view"),
      view("backView", "Back view"),
      view("rightView", "Right view"),
    ],
    params: tripoParams(),
    run: { kind: "provider" },
  }),
  gen({
    type: "rodin-3d",
    displayName: "Rodin 3D",
    inputs: [imageInput({ required: true, multiple: true, max: 5 }), promptInput(false)],
    params: params({
      prompt: text("", "Prompt"),
      geometryFileFormat: choice(["glb", "usdz", "fbx", "obj", "stl"], "glb", "File format"),
      material: choice(["PBR", "Shaded", "All"], "All", "Material"),
      quality: choice(["high", "medium", "low", "extra-low"], "medium", "Quality"),
      tier: choice(["Regular", "Sketch"], "Regular", "Tier"),
      seed: seed(),
    }),
    run: { kind: "provider" },
  }),
  gen({
    type: "meshy-v6",
    displayName: "Meshy 6",
    inputs: [imageInput({ required: true }), input("textureImage", "Texture image", "image")],
    params: params({
      modelType: choice(["standard", "lowpoly"], "standard", "Model type"),
      topology: choice(["triangle", "quad"], "triangle", "Topology"),
      targetPolycount: integer(100, 300_000, 30_000, "Target polycount"),
      symmetryMode: choice(["off", "auto", "on"], "auto", "Symmetry"),
      shouldRemesh: flag(true, "Remesh"),
      shouldTexture: flag(true, "Texture"),
      enablePbr: flag(false, "PBR maps"),
      texturePrompt: text("", "Texture prompt"),
    }),
    run: { kind: "provider" },
  }),
  gen({
    type: "seed-3d",
    displayName: "Seed3D",
    inputs: [imageInput({ required: true })],
    params: params({}),
    run: { kind: "provider" },
    lifecycle: {
      status: "at-risk",
      message: "Seed3D is missing from the provider's newest model list and may be retired.",
      successor: "3d",
    },
  }),
];
