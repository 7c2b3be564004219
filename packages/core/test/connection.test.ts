import { describe, expect, it } from "vitest";
import {
  type ConnectionGraph,
  type ConnectionGraphNode,
  validateConnection,
} from "../src/index.ts";

const textNode = (id: string, text = "a red fox"): ConnectionGraphNode => ({
  id,
  type: "text",
  data: { inputValues: { text: { value: text } } },
});
const node = (
  id: string,
  type: string,
  data: Record<string, unknown> = {},
): ConnectionGraphNode => ({ id, type, data });
/** A generator that has already produced an image. */
const rendered = (id: string, type = "flux-pro") =>
  node(id, type, { outputs: { imageUrl: "https://cdn.example/a.png" } });

function graph(
  nodes: ConnectionGraphNode[],
  edges: ConnectionGraph["edges"] = [],
): ConnectionGraph {
  return { nodes, edges };
}

describe("validateConnection (SPEC §5)", () => {
  const base = graph([
    textNode("t"),
    rendered("img"),
    node("vid", "kling-video"),
    node("gpt", "gpt-image"),
  ]);

  it("accepts a compatible connection", () => {
    expect(
      validateConnection(base, {
        source: "t",
        sourceHandle: "text",
        target: "img",
        targetHandle: "prompt",
      }),
    ).toEqual({ ok: true });
    expect(
      validateConnection(base, {
        source: "img",
        sourceHandle: "image",
        target: "vid",
        targetHandle: "image",
      }),
    ).toEqual({ ok: true });
  });

  it("refuses missing nodes with 'Invalid source or target node'", () => {
    const message = "Invalid source or target node";
    expect(
      validateConnection(base, {
        source: "nope",
        sourceHandle: "text",
        target: "img",
        targetHandle: "prompt",
      }),
    ).toEqual({ ok: false, message });
    expect(
      validateConnection(base, {
        source: "t",
        sourceHandle: "text",
        target: "nope",
        targetHandle: "prompt",
      }),
    ).toEqual({ ok: false, message });
  });

  it("refuses missing ports with 'Invalid source or target port'", () => {
    const message = "Invalid source or target port";
    expect(
      validateConnection(base, {
        source: "t",
        sourceHandle: "nope",
        target: "img",
        targetHandle: "prompt",
      }),
    ).toEqual({ ok: false, message });
    expect(
      validateConnection(base, {
        source: "t",
        sourceHandle: "text",
        target: "img",
        targetHandle: "nope",
      }),
    ).toEqual({ ok: false, message });
    // An input used as a source is not an output port.
    expect(
      validateConnection(base, {
        source: "img",
        sourceHandle: "prompt",
        target: "vid",
        targetHandle: "prompt",
      }),
    ).toEqual({ ok: false, message });
  });

  it("refuses a type mismatch naming both types", () => {
    expect(
      validateConnection(base, {
        source: "t",
        sourceHandle: "text",
        target: "vid",
        targetHandle: "image",
      }),
    ).toEqual({
      ok: false,
      message: "Type mismatch: Cannot connect text to image",
    });
    expect(
      validateConnection(base, {
        source: "img",
        sourceHandle: "image",
        target: "vid",
        targetHandle: "prompt",
      }),
    ).toEqual({
      ok: false,
      message: "Type mismatch: Cannot connect image to text",
    });
  });

  it("lets 'any' ports take every type", () => {
    const g = graph([rendered("img"), node("util", "utility")]);
    expect(
      validateConnection(g, {
        source: "img",
        sourceHandle: "image",
        target: "util",
        targetHandle: "media",
      }),
    ).toEqual({ ok: true });
  });

  it("refuses a second connection into a single input", () => {
    const g = graph(
      [textNode("t1"), textNode("t2"), node("img", "flux-pro")],
      [{ source: "t1", sourceHandle: "text", target: "img", targetHandle: "prompt" }],
    );
    expect(
      validateConnection(g, {
        source: "t2",
        sourceHandle: "text",
        target: "img",
        targetHandle: "prompt",
      }),
    ).toEqual({
      ok: false,
      message: "This input already has a connection. Please remove the existing connection first.",
    });
  });

  it.each([
    ["gpt-image", 5],
    ["runway-image", 3],
  ] as const)("lets %s's image input take %i connections and no more", (type, max) => {
    const sources = Array.from({ length: max + 1 }, (_, index) => rendered(`s${index}`));
    const edges = sources.slice(0, max - 1).map((source) => ({
      source: source.id,
      sourceHandle: "image",
      target: "n",
      targetHandle: "image",
    }));
    const g = graph([...sources, node("n", type)], edges);
    expect(
      validateConnection(g, {
        source: `s${max - 1}`,
        sourceHandle: "image",
        target: "n",
        targetHandle: "image",
      }),
    ).toEqual({ ok: true });
    const full = graph(g.nodes as ConnectionGraphNode[], [
      ...edges,
      { source: `s${max - 1}`, sourceHandle: "image", target: "n", targetHandle: "image" },
    ]);
    expect(
      validateConnection(full, {
        source: `s${max}`,
        sourceHandle: "image",
        target: "n",
        targetHandle: "image",
      }),
    ).toEqual({
      ok: false,
      message: `This node can only accept up to ${max} image connections...`,
    });
  });

  it("silently refuses text, image and video from a source with no content yet", () => {
    const g = graph([textNode("empty", ""), node("img", "flux-pro"), textNode("full")]);
    expect(
      validateConnection(g, {
        source: "empty",
        sourceHandle: "text",
        target: "img",
        targetHandle: "prompt",
      }),
    ).toEqual({ ok: false, message: null });
    expect(
      validateConnection(g, {
        source: "full",
        sourceHandle: "text",
        target: "img",
        targetHandle: "prompt",
      }),
    ).toEqual({ ok: true });
    const typed = graph([node("typed", "text", { text: "hello" }), node("img", "flux-pro")]);
    expect(
      validateConnection(typed, {
        source: "typed",
        sourceHandle: "text",
        target: "img",
        targetHandle: "prompt",
      }),
    ).toEqual({ ok: true });
    const fromOutput = graph([
      node("o", "text", { outputValues: { text: { value: "hi" } } }),
      node("img", "flux-pro"),
    ]);
    expect(
      validateConnection(fromOutput, {
        source: "o",
        sourceHandle: "text",
        target: "img",
        targetHandle: "prompt",
      }),
    ).toEqual({ ok: true });
  });

  it("silently refuses a generator that has no output and could not make one yet", () => {
    const empty = graph([node("img", "imagen"), node("vid", "kling-video")]);
    const connection = {
      source: "img",
      sourceHandle: "image",
      target: "vid",
      targetHandle: "image",
    };
    expect(validateConnection(empty, connection)).toEqual({ ok: false, message: null });
    // Once its required prompt is fed (by a wire or typed in), a run will fill it.
    const wired = graph(
      [textNode("t"), node("img", "imagen"), node("vid", "kling-video")],
      [{ source: "t", sourceHandle: "text", target: "img", targetHandle: "prompt" }],
    );
    expect(validateConnection(wired, connection)).toEqual({ ok: true });
    const typed = graph([
      node("img", "imagen", { inputValues: { prompt: { value: "a fox" } } }),
      node("vid", "kling-video"),
    ]);
    expect(validateConnection(typed, connection)).toEqual({ ok: true });
  });

  it("a character reference with images, and a scene composer, can be wired on before they hold anything", () => {
    const toSeedream = {
      sourceHandle: "reference",
      target: "gen",
      targetHandle: "referenceImages",
    };
    const bare = graph([node("mia", "character-reference"), node("gen", "seedream")]);
    expect(validateConnection(bare, { source: "mia", ...toSeedream })).toEqual({
      ok: false,
      message: null,
    });
    const withImages = graph(
      [rendered("img"), node("mia", "character-reference"), node("gen", "seedream")],
      [{ source: "img", sourceHandle: "image", target: "mia", targetHandle: "referenceImages" }],
    );
    expect(validateConnection(withImages, { source: "mia", ...toSeedream })).toEqual({ ok: true });
    const scene = graph([node("scene", "scene-composer"), node("vid", "kling-video")]);
    expect(
      validateConnection(scene, {
        source: "scene",
        sourceHandle: "image",
        target: "vid",
        targetHandle: "image",
      }),
    ).toEqual({ ok: true });
  });

  it("refuses a duplicate or a self-connection silently", () => {
    const g = graph(
      [rendered("img"), node("c", "container")],
      [{ source: "img", sourceHandle: "image", target: "c", targetHandle: "media" }],
    );
    expect(
      validateConnection(g, {
        source: "img",
        sourceHandle: "image",
        target: "c",
        targetHandle: "media",
      }),
    ).toEqual({ ok: false, message: null });
    const self = graph([node("u", "utility")]);
    expect(
      validateConnection(self, {
        source: "u",
        sourceHandle: "output",
        target: "u",
        targetHandle: "media",
      }),
    ).toEqual({ ok: false, message: null });
  });

  it("resolves a missing handle when the node has a single port of that side", () => {
    expect(
      validateConnection(base, {
        source: "t",
        sourceHandle: null,
        target: "img",
        targetHandle: "prompt",
      }),
    ).toEqual({ ok: true });
    expect(
      validateConnection(base, {
        source: "t",
        sourceHandle: "text",
        target: "img",
        targetHandle: null,
      }),
    ).toEqual({
      ok: false,
      message: "Invalid source or target port",
    });
  });
});
