import { describe, expect, it } from "vitest";
import {
  type GraphEdge,
  gatherInputs,
  indexGraph,
  type RunNode,
  type RunNodeData,
  runSignatureOf,
  SCENE_VIDEO_DEFAULT_PROMPT,
  signatureReads,
} from "../src/index.ts";

const node = (id: string, type: string, data: RunNodeData = {}): RunNode => ({
  id,
  type,
  data,
});
const edge = (
  source: string,
  target: string,
  sourceHandle: string | null,
  targetHandle: string | null,
): GraphEdge => ({
  id: `${source}-${target}-${targetHandle}`,
  source,
  target,
  sourceHandle,
  targetHandle,
});
const values = (record: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, { value }]));

describe("gatherInputs", () => {
  it("reads parameters and reports a required prompt with nothing in it", () => {
    const nodes = [
      node("g", "gpt-image", { inputValues: values({ prompt: "", quality: "high" }) }),
    ];
    expect(gatherInputs(nodes, [], "g")).toEqual({
      inputs: {},
      params: { prompt: "", quality: "high" },
      missing: ["Prompt"],
    });
  });

  it("counts the node's own prompt parameter as a filled prompt port", () => {
    const nodes = [node("g", "gpt-image", { inputValues: values({ prompt: "  a cat " }) })];
    expect(gatherInputs(nodes, [], "g").missing).toEqual([]);
    const blank = [node("g", "gpt-image", { inputValues: values({ prompt: "   " }) })];
    expect(gatherInputs(blank, [], "g").missing).toEqual(["Prompt"]);
  });

  it("takes a text node's own text into a prompt port", () => {
    const nodes = [
      node("t", "text", { inputValues: values({ text: "a red fox" }) }),
      node("g", "gpt-image", { inputValues: values({ prompt: "" }) }),
    ];
    const result = gatherInputs(nodes, [edge("t", "g", "text", "prompt")], "g");
    expect(result.inputs).toEqual({ prompt: "a red fox" });
    expect(result.missing).toEqual([]);
  });

  it("prefers outputValues[sourceHandle], then outputs under the handle or a media key", () => {
    const nodes = [
      node("a", "flux-pro", {
        outputValues: values({ image: "/api/media/file/a.png" }),
        outputs: { imageUrl: "/api/media/file/old.png" },
      }),
      node("b", "flux-pro", { outputs: { imageUrl: "https://x.test/b.png" } }),
      node("c", "gemini-text", { outputs: { text: "from gemini" } }),
      node("k", "flux-kontext", { inputValues: values({ prompt: "" }) }),
    ];
    const edges = [
      edge("a", "k", "image", "image"),
      edge("b", "k", "image", "referenceImages"),
      edge("c", "k", "text", "prompt"),
    ];
    expect(gatherInputs(nodes, edges, "k")).toMatchObject({
      inputs: {
        image: "/api/media/file/a.png",
        referenceImages: ["https://x.test/b.png"],
        prompt: "from gemini",
      },
      missing: [],
    });
  });

  it("lists a multiple port's values in connection order, flattening image lists", () => {
    const nodes = [
      node("a", "flux-pro", { outputValues: values({ image: ["u1", "u2"] }) }),
      node("b", "flux-pro", { outputs: { images: ["u3"] } }),
      node("g", "gpt-image", { inputValues: values({ prompt: "p" }) }),
    ];
    const edges = [edge("a", "g", "image", "image"), edge("b", "g", "image", "image")];
    expect(gatherInputs(nodes, edges, "g").inputs).toEqual({ image: ["u1", "u2", "u3"] });
  });

  it("gives a single port the first value, and reads { url } and numbers", () => {
    const nodes = [
      node("a", "flux-pro", { outputValues: values({ image: ["first", "second"] }) }),
      node("s", "audio-isolation", {
        outputs: { isolatedAudio: { url: "/api/media/file/x.mp3" } },
      }),
      node("n", "flux-kontext", { outputValues: values({ image: 42 }) }),
      node("k", "flux-kontext", { inputValues: values({ prompt: "p" }) }),
      node("i", "audio-isolation"),
    ];
    const edges = [
      edge("a", "k", "image", "image"),
      edge("n", "k", "image", "seed"),
      edge("s", "i", "audio", "media"),
    ];
    expect(gatherInputs(nodes, edges, "k").inputs).toEqual({ image: "first", seed: "42" });
    expect(gatherInputs(nodes, edges, "i").inputs).toEqual({ media: "/api/media/file/x.mp3" });
  });

  it("feeds the first port from an edge without a target handle", () => {
    const nodes = [
      node("t", "text", { inputValues: values({ text: "hello" }) }),
      node("g", "gemini-text", { inputValues: values({ prompt: "" }) }),
    ];
    expect(gatherInputs(nodes, [edge("t", "g", null, null)], "g").inputs).toEqual({
      prompt: "hello",
    });
  });

  it("reports every required port without a value, by label and in order", () => {
    const nodes = [
      node("empty", "flux-pro", { outputs: {} }),
      node("m", "3d-multiview", { inputValues: values({ seed: null }) }),
    ];
    const edges = [edge("empty", "m", "image", "backView"), edge("gone", "m", "image", "leftView")];
    expect(gatherInputs(nodes, edges, "m").missing).toEqual([
      "Front view",
      "Back view",
      "Left view",
    ]);
  });

  it("answers only parameters for an unknown node or type", () => {
    expect(gatherInputs([], [], "nothing")).toEqual({ inputs: {}, params: {}, missing: [] });
    const nodes = [node("x", "no-such-type", { inputValues: values({ a: 1 }) })];
    expect(gatherInputs(nodes, [], "x")).toEqual({ inputs: {}, params: { a: 1 }, missing: [] });
  });

  it("gives a video fed by a scene composer SPEC's default prompt when its own is empty", () => {
    const nodes = [
      node("scene", "scene-composer", { outputValues: values({ image: "https://x/shot.png" }) }),
      node("v", "veo3-video", { inputValues: values({ prompt: "" }) }),
    ];
    const edges = [edge("scene", "v", "image", "image")];
    const gathered = gatherInputs(nodes, edges, "v");
    expect(gathered.inputs.prompt).toBe(SCENE_VIDEO_DEFAULT_PROMPT);
    expect(gathered.missing).toEqual([]);
    const own = [
      nodes[0] as RunNode,
      node("v", "veo3-video", { inputValues: values({ prompt: "waves" }) }),
    ];
    expect(gatherInputs(own, edges, "v").inputs.prompt).toBeUndefined();
  });

  it("a character reference gives its images as references and who it is to the prompt", () => {
    const nodes = [
      node("a", "utility", { outputs: { imageUrl: "/api/media/file/a.png" } }),
      node("b", "utility", { outputs: { imageUrl: "/api/media/file/b.png" } }),
      node("mia", "character-reference", {
        inputValues: values({ name: "Mia", description: "red hair, green coat" }),
      }),
      node("gen", "seedream", { inputValues: values({ prompt: "walking in Paris" }) }),
      node("key", "upscaler"),
    ];
    const edges = [
      edge("a", "mia", "image", "referenceImages"),
      edge("b", "mia", "image", "referenceImages"),
      edge("mia", "gen", "reference", "referenceImages"),
      edge("mia", "key", "image", "image"),
    ];
    expect(gatherInputs(nodes, edges, "gen")).toEqual({
      inputs: {
        referenceImages: ["/api/media/file/a.png", "/api/media/file/b.png"],
        prompt: "walking in Paris\nMia: red hair, green coat",
      },
      params: { prompt: "walking in Paris" },
      missing: [],
    });
    // The key image is the first reference.
    expect(gatherInputs(nodes, edges, "key").inputs).toEqual({ image: "/api/media/file/a.png" });
    // With no prompt of its own, the character is the prompt.
    const silent = nodes.map((n) =>
      n.id === "gen" ? { ...n, data: { inputValues: values({ prompt: "" }) } } : n,
    );
    expect(gatherInputs(silent, edges, "gen")).toMatchObject({
      inputs: { prompt: "Mia: red hair, green coat" },
      missing: [],
    });
  });

  it("a synthetic human's reference is its portrait, described by its prompt, age and framing", () => {
    const nodes = [
      node("h", "synthetic-humans", {
        label: "Sam",
        inputValues: values({ prompt: "freckled runner", age: "young adult", shot: "headshot" }),
        outputs: { imageUrl: "/api/media/file/sam.png" },
      }),
      node("gen", "flux-kontext", { inputValues: values({ prompt: "on a beach" }) }),
    ];
    expect(
      gatherInputs(nodes, [edge("h", "gen", "reference", "referenceImages")], "gen").inputs,
    ).toEqual({
      referenceImages: ["/api/media/file/sam.png"],
      prompt: "on a beach\nSam: freckled runner — young adult, headshot",
    });
  });
});

describe("signatureReads", () => {
  const nodes = [
    node("a", "utility", { outputs: { imageUrl: "/api/media/file/a.png" } }),
    node("mia", "character-reference", { inputValues: values({ name: "Mia" }) }),
    node("gen", "seedream", { inputValues: values({ prompt: "walking in Paris" }) }),
    node("far", "utility", { outputs: { imageUrl: "/api/media/file/far.png" } }),
  ];
  const edges = [
    edge("a", "mia", "image", "referenceImages"),
    edge("mia", "gen", "reference", "referenceImages"),
  ];
  const readsWith = (changed: string) => {
    const graph = nodes.map((n) => (n.id === changed ? { ...n, data: { ...n.data } } : n));
    return signatureReads("gen", indexGraph(graph, edges));
  };
  const same = (a: unknown[], b: unknown[]) =>
    a.length === b.length && a.every((value, at) => value === b[at]);

  it("changes with the node, its sources and what a reference source reads; not with others", () => {
    const before = signatureReads("gen", indexGraph(nodes, edges));
    expect(same(before, signatureReads("gen", indexGraph(nodes, edges)))).toBe(true);
    expect(same(before, readsWith("far"))).toBe(true);
    for (const changed of ["gen", "mia", "a"]) expect(same(before, readsWith(changed))).toBe(false);
    // A wire moved to another port changes it too.
    const moved = [edges[0] as GraphEdge, { ...(edges[1] as GraphEdge), targetHandle: "image" }];
    expect(same(before, signatureReads("gen", indexGraph(nodes, moved)))).toBe(false);
  });

  it("tells a wire into the node from the same wire into a reference source before it", () => {
    const graph = [
      node("r", "synthetic-humans", { inputValues: values({ prompt: "runner" }) }),
      node("t", "text", { inputValues: values({ text: "on a beach" }) }),
      node("n", "seedream", { inputValues: values({ prompt: "" }) }),
    ];
    const toNode = [
      edge("r", "n", "reference", "referenceImages"),
      edge("t", "n", "text", "prompt"),
    ];
    const toReference = [
      edge("r", "n", "reference", "referenceImages"),
      edge("t", "r", "text", "prompt"),
    ];
    const [a, b] = [toNode, toReference].map((wires) => {
      const index = indexGraph(graph, wires);
      return {
        reads: signatureReads("n", index),
        signature: runSignatureOf(graph, wires, "n", index),
      };
    });
    expect(a?.signature).not.toBe(b?.signature);
    expect(same(a?.reads ?? [], b?.reads ?? [])).toBe(false);
  });
});
