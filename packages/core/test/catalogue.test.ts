import { describe, expect, it } from "vitest";
import { NODE_DESCRIPTIONS } from "../src/catalogue/descriptions.ts";
import {
  CATALOGUE_INPUT_TYPES,
  getNodeDefinition,
  listNodeDefinitions,
  NODE_CATEGORIES,
  notificationKind,
  PROVIDER_RUNS,
} from "../src/index.ts";

/** SPEC §3's node-type catalogue, family by family. */
const SPEC_FAMILIES = {
  text: ["text", "gemini-text"],
  image: [
    "gpt-image",
    "imagen",
    "ideogram",
    "flux-kontext",
    "flux-pro",
    "flux-spro",
    "seedream",
    "dreamina",
    "lucid",
    "luma-photon",
    "mystic",
    "qwen",
    "runway-image",
    "minimax",
    "google-flash",
    "hunyuan-v3",
    "reve",
  ],
  video: [
    "video",
    "veo-video",
    "veo3-video",
    "veo31-video",
    "vidu-q2",
    "ltx-2-video",
    "runway-video",
    "runway-aleph",
    "hailuo",
    "seedance",
    "wan-video",
    "wan-animate",
    "kling-video",
    "moonvalley",
    "luma-ray",
    "luma-modify",
    "luma-reframe",
    "motion-2",
    "sora-video",
  ],
  "3d": ["3d", "3d-multiview", "tripo-3d", "tripo-3d-multiview", "rodin-3d", "meshy-v6", "seed-3d"],
  audio: [
    "elevenlabs-v3",
    "elevenlabs-sfx",
    "mirelo-sfx",
    "sonauto-music",
    "minimax-music",
    "voice-clone",
    "stable-audio",
    "audio-isolation",
    "lip-sync",
  ],
  processing: [
    "utility",
    "bg-remover",
    "upscaler",
    "magnific-upscaler",
    "video-upscaler",
    "video-bg-remover",
    "stylizer",
    "vectorize",
    "levels",
    "crop",
    "resize",
    "reframe",
    "magnific-relight",
    "merge-videos",
    "merge-audio-video",
    "virtual-tryon",
    "moondream-v3",
  ],
  containers: [
    "container",
    "video-container",
    "3d-container",
    "audio-container",
    "group",
    "notepad",
    "annotation",
    "markdown-viewer",
    "image-automation",
    "scene-composer",
    "character-reference",
    "synthetic-humans",
  ],
} as const;

const ALL_SPEC_TYPES = Object.values(SPEC_FAMILIES).flat();
const definitions = listNodeDefinitions();
const inputsOf = (type: string) => getNodeDefinition(type)?.inputs ?? [];

describe("node-type catalogue", () => {
  it("holds exactly the 83 node types of SPEC §3, each once, in its family", () => {
    expect(ALL_SPEC_TYPES).toHaveLength(83);
    expect(definitions.map((definition) => definition.type).sort()).toEqual(
      [...ALL_SPEC_TYPES].sort(),
    );
    for (const [family, types] of Object.entries(SPEC_FAMILIES)) {
      for (const type of types) expect(getNodeDefinition(type)?.category, type).toBe(family);
    }
    expect([...NODE_CATEGORIES]).toEqual(Object.keys(SPEC_FAMILIES));
    expect(getNodeDefinition("no-such-node")).toBeUndefined();
  });

  it("uses exactly the input types SPEC §3 names for catalogue inputs", () => {
    const used = new Set(
      definitions.flatMap((definition) => definition.inputs.map((port) => port.type)),
    );
    expect([...used].sort()).toEqual([...CATALOGUE_INPUT_TYPES].sort());
  });

  it("uses SPEC's display names where it gives them", () => {
    expect(getNodeDefinition("veo-video")?.displayName).toBe("Veo 2");
    expect(getNodeDefinition("veo3-video")?.displayName).toBe("Veo 3");
    expect(getNodeDefinition("kling-video")?.displayName).toBe("Kling");
    expect(getNodeDefinition("runway-video")?.displayName).toBe("Runway Gen-4");
    expect(getNodeDefinition("3d")?.displayName).toBe("Hunyuan 3D");
    expect(getNodeDefinition("tripo-3d")?.displayName).toBe("Tripo 3D");
    expect(getNodeDefinition("rodin-3d")?.displayName).toBe("Rodin 3D");
  });

  it.each(definitions.map((definition) => [definition.type, definition] as const))(
    "%s is complete: unique port ids, catalogue input types, parameters with defaults, a run",
    (_type, definition) => {
      expect(definition.displayName.length).toBeGreaterThan(0);
      expect(NODE_DESCRIPTIONS[definition.type]?.length).toBeGreaterThan(0);
      const inputIds = definition.inputs.map((port) => port.id);
      expect(new Set(inputIds).size).toBe(inputIds.length);
      const outputIds = definition.outputs.map((port) => port.id);
      expect(new Set(outputIds).size).toBe(outputIds.length);
      for (const port of definition.inputs) {
        expect(CATALOGUE_INPUT_TYPES as readonly string[]).toContain(port.type);
        expect(typeof port.required).toBe("boolean");
        expect(typeof port.multiple).toBe("boolean");
        expect(port.label.length).toBeGreaterThan(0);
        if (port.max !== undefined) expect(port.multiple).toBe(true);
      }
      const defaults = definition.params.parse({});
      for (const key of Object.keys(definition.params.shape)) expect(defaults).toHaveProperty(key);
      if (definition.run.kind === "provider")
        expect(PROVIDER_RUNS[definition.type]?.endpoint.length).toBeGreaterThan(0);
      else expect(PROVIDER_RUNS[definition.type]).toBeUndefined();
      if (definition.run.kind === "local")
        expect(definition.run.operation.length).toBeGreaterThan(0);
      if (definition.lifecycle?.successor)
        expect(getNodeDefinition(definition.lifecycle.successor)).toBeDefined();
    },
  );

  it("requires a prompt on every image generator but Mystic, and on video, seedance, luma-ray, sora-video and runway-aleph", () => {
    for (const type of SPEC_FAMILIES.image) {
      const promptPort = inputsOf(type).find((port) => port.id === "prompt");
      expect(promptPort, type).toMatchObject({ type: "text", required: type !== "mystic" });
    }
    const promptRequired = SPEC_FAMILIES.image.filter((type) =>
      inputsOf(type).some((p) => p.id === "prompt" && p.required),
    );
    expect(promptRequired.length).toBeGreaterThan(SPEC_FAMILIES.image.length / 2);
    for (const type of ["video", "seedance", "luma-ray", "sora-video", "runway-aleph"]) {
      expect(
        inputsOf(type).find((port) => port.id === "prompt"),
        type,
      ).toMatchObject({ type: "text", required: true });
    }
    expect(inputsOf("wan-animate").some((port) => port.id === "prompt")).toBe(false);
  });

  it("gives every video generator a video output and a capturedFrame image", () => {
    for (const type of SPEC_FAMILIES.video) {
      const outputs = getNodeDefinition(type)?.outputs;
      expect(outputs, type).toContainEqual({ id: "video", label: "Video", type: "video" });
      expect(outputs, type).toContainEqual(
        expect.objectContaining({ id: "capturedFrame", type: "image" }),
      );
    }
  });

  it("gives every 3D node a model (object) and a snapshot (image)", () => {
    for (const type of SPEC_FAMILIES["3d"]) {
      expect(getNodeDefinition(type)?.outputs, type).toEqual([
        expect.objectContaining({ id: "model", type: "object" }),
        expect.objectContaining({ id: "snapshot", type: "image" }),
      ]);
    }
  });

  it("requires front, back and left views on 3d-multiview and front, left, back, right on tripo-3d-multiview", () => {
    const required = (type: string) =>
      inputsOf(type)
        .filter((port) => port.required)
        .map((port) => port.id);
    expect(required("3d-multiview")).toEqual(["frontView", "backView", "leftView"]);
    expect(required("tripo-3d-multiview")).toEqual([
      "frontView",
      "leftView",
      "backView",
      "rightView",
    ]);
    for (const type of ["3d-multiview", "tripo-3d-multiview"]) {
      for (const port of inputsOf(type)) expect(port.type).toBe("image");
    }
  });

  it("caps gpt-image's image input at 5 connections and runway-image's at 3", () => {
    expect(inputsOf("gpt-image").find((port) => port.id === "image")).toMatchObject({
      type: "image",
      multiple: true,
      max: 5,
    });
    expect(inputsOf("runway-image").find((port) => port.id === "image")).toMatchObject({
      type: "image",
      multiple: true,
      max: 3,
    });
  });

  it("uses each input id SPEC §3 lists somewhere in the catalogue", () => {
    const used = new Set(
      definitions.flatMap((definition) => definition.inputs.map((port) => port.id)),
    );
    for (const id of [
      "image",
      "endFrame",
      "firstFrame",
      "lastFrame",
      "referenceImages",
      "controlImage",
      "structureReference",
      "styleReference",
      "textureImage",
      "human",
      "garment",
      "video1",
      "video2",
      "media",
    ]) {
      expect(used.has(id), id).toBe(true);
    }
  });

  it("marks retired models and names their successor", () => {
    expect(getNodeDefinition("veo-video")?.lifecycle).toMatchObject({
      status: "retired",
      successor: "veo31-video",
    });
    expect(getNodeDefinition("veo3-video")?.lifecycle).toMatchObject({
      status: "retired",
      successor: "veo31-video",
    });
    expect(getNodeDefinition("veo31-video")?.lifecycle).toBeUndefined();
  });

  it("reads parameter defaults from the real models' docs", () => {
    expect(getNodeDefinition("flux-pro")?.params.parse({})).toMatchObject({
      imageSize: "landscape_4_3",
      numImages: 1,
      outputFormat: "jpeg",
      safetyTolerance: "2",
    });
    expect(getNodeDefinition("veo31-video")?.params.parse({})).toMatchObject({
      duration: "8s",
      resolution: "720p",
      generateAudio: true,
    });
    expect(getNodeDefinition("kling-video")?.params.parse({})).toMatchObject({
      duration: "5",
      cfgScale: 0.5,
    });
    expect(getNodeDefinition("3d")?.params.parse({})).toMatchObject({
      texturedMesh: false,
      octreeResolution: 256,
      numInferenceSteps: 50,
      guidanceScale: 7.5,
    });
    expect(() => getNodeDefinition("imagen")?.params.parse({ aspectRatio: "5:1" })).toThrow();
  });

  it("notifies on completion only for video and 3D nodes (SPEC §9)", () => {
    expect(notificationKind("kling-video")).toBe("video");
    expect(notificationKind("lip-sync")).toBe("video");
    expect(notificationKind("tripo-3d")).toBe("3d");
    expect(notificationKind("flux-pro")).toBeNull();
    expect(notificationKind("unknown")).toBeNull();
  });
});
