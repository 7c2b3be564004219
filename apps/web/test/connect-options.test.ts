import { describe, expect, it } from "vitest";
import type { CanvasEdge, CanvasNode } from "../src/features/document/types.ts";
import { connectOptions, NEAREST_NODES } from "../src/features/keyboard/connect-options.ts";

const node = (id: string, type: string, x: number, data: CanvasNode["data"] = {}): CanvasNode => ({
  id,
  type,
  position: { x, y: 0 },
  data,
});
const written = { inputValues: { text: { value: "a fox" } } };

describe("Connect… options (core's validateConnection decides)", () => {
  it("offers the node's outputs into others' inputs and theirs into its own, labelled", () => {
    const nodes = [node("t", "text", 0, written), node("f", "flux-pro", 400)];
    const labels = connectOptions({ nodes, edges: [] }, "t").map((option) => option.label);
    expect(labels).toContain("Text · Text → FLUX1.1 [pro] · Prompt");
    // A text output never goes into an image input: the rule refuses it, so it is not offered.
    expect(labels.every((label) => label.startsWith("Text · Text → FLUX1.1 [pro] · "))).toBe(true);
    const intoFlux = connectOptions({ nodes, edges: [] }, "f").map((option) => option.connection);
    expect(intoFlux).toContainEqual({
      source: "t",
      sourceHandle: "text",
      target: "f",
      targetHandle: "prompt",
    });
  });

  it("leaves out a wire that exists, an empty source and the node itself", () => {
    const edges: CanvasEdge[] = [
      { id: "e", source: "t", sourceHandle: "text", target: "f", targetHandle: "prompt" },
    ];
    const nodes = [node("t", "text", 0, written), node("f", "flux-pro", 400)];
    const labels = connectOptions({ nodes, edges }, "t").map((option) => option.label);
    expect(labels).not.toContain("Text · Text → FLUX1.1 [pro] · Prompt");
    // A Text node with nothing typed has nothing to give yet.
    const empty = [node("t", "text", 0), node("f", "flux-pro", 400)];
    expect(connectOptions({ nodes: empty, edges: [] }, "t")).toEqual([]);
    expect(connectOptions({ nodes: empty, edges: [] }, "missing")).toEqual([]);
  });

  it(`looks at the nearest ${NEAREST_NODES} nodes, nearest first`, () => {
    const nodes = [node("t", "text", 0, written)];
    for (let i = 1; i <= NEAREST_NODES + 50; i++) nodes.push(node(`f${i}`, "flux-pro", i * 10));
    const targets = connectOptions({ nodes, edges: [] }, "t")
      .filter((option) => option.connection.targetHandle === "prompt")
      .map((option) => option.connection.target);
    expect(targets).toHaveLength(NEAREST_NODES);
    expect(targets[0]).toBe("f1");
    expect(targets.at(-1)).toBe(`f${NEAREST_NODES}`);
  });
});

describe("Connect… labels", () => {
  it("number nodes that share a name, and key each wire apart", () => {
    const nodes = [
      node("t1", "text", 0, written),
      node("t2", "text", 100, written),
      node("f", "flux-pro", 400),
    ];
    const options = connectOptions({ nodes, edges: [] }, "f");
    const labels = options.map((option) => option.label);
    expect(labels).toContain("Text 1 · Text → FLUX1.1 [pro] · Prompt");
    expect(labels).toContain("Text 2 · Text → FLUX1.1 [pro] · Prompt");
    expect(new Set(options.map((option) => option.key)).size).toBe(options.length);
  });
});
