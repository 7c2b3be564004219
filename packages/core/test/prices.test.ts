import { describe, expect, it } from "vitest";
import {
  estimateGraphRun,
  estimateNode,
  formatUsd,
  getNodeDefinition,
  type NodeDefinition,
  PRICE_RULES,
  priceOf,
  resolveRunTarget,
  runSignatureOf,
  totalOf,
} from "../src/index.ts";

const definition = (type: string) => getNodeDefinition(type) as NodeDefinition;
const fal = { configured: new Set(["fal", "local"]), doneLocally: new Set<string>() };
const offline = { configured: new Set(["local"]), doneLocally: new Set<string>() };
const frames = new Set(["prompt", "firstFrame", "lastFrame"]);

describe("prices: the providers' published prices, unknown where there is none", () => {
  it("Veo 3 on fal: per second, audio on or off (catalogue video.md §3)", () => {
    expect(priceOf("fal-ai/veo3", {})).toBe(3.2);
    expect(priceOf("fal-ai/veo3", { duration: "4s", generateAudio: false })).toBe(0.8);
    expect(priceOf("fal-ai/veo3/fast/image-to-video", { duration: "6s" })).toBe(0.9);
  });

  it("Veo 3.1 Fast first/last frame: 4k costs more (catalogue video.md §4)", () => {
    const endpoint = "fal-ai/veo3.1/fast/first-last-frame-to-video";
    expect(priceOf(endpoint, { duration: "8s", resolution: "1080p" })).toBe(1.2);
    expect(priceOf(endpoint, { duration: "8s", resolution: "4k", generateAudio: false })).toBe(2.4);
  });

  it("work done on this server is free; an endpoint with no published price is unknown", () => {
    expect(priceOf("local/flux-pro", {})).toBe(0);
    expect(priceOf("fal-ai/flux-pro/v1.1", {})).toBeNull();
    expect(priceOf("fal-ai/veo3.1", {})).toBeNull();
    for (const rule of Object.values(PRICE_RULES)) expect(rule.source).toMatch(/^FAL-/);
  });

  it("estimates a node by the endpoint its parameters and wires pick", () => {
    const veo31 = definition("veo31-video");
    expect(estimateNode(veo31, frames, { model: "fast", duration: "8s" }, fal)).toEqual({
      usd: 1.2,
      provider: "fal",
      endpoint: "fal-ai/veo3.1/fast/first-last-frame-to-video",
    });
    expect(estimateNode(veo31, frames, { model: "standard" }, fal)?.usd).toBeNull();
    expect(estimateNode(veo31, frames, { model: "fast" }, offline)).toEqual({
      usd: 0,
      provider: "local",
      endpoint: "local/veo31-video",
    });
    expect(estimateNode(definition("text"), new Set(), {}, fal)).toBeNull();
  });

  it("totals the known part and counts the unknown", () => {
    expect(
      totalOf([
        { usd: 1.2, provider: "fal", endpoint: "a" },
        { usd: null, provider: "fal", endpoint: "b" },
        null,
        { usd: 0.1, provider: "fal", endpoint: "c" },
      ]),
    ).toEqual({ usd: 1.3, unknown: 1 });
  });

  it("says costs for people", () => {
    expect(formatUsd(1.2)).toBe("$1.20");
    expect(formatUsd(0.004)).toBe("<$0.01");
    expect(formatUsd(0)).toBe("Free");
    expect(formatUsd(null)).toBe("Cost unknown");
  });
});

describe("resolveRunTarget: a model choice with connected inputs", () => {
  it("takes the endpoint for both when there is one (Veo 3 Fast with an image)", () => {
    const veo3 = definition("veo3-video");
    expect(
      resolveRunTarget(veo3, new Set(["image"]), { model: "fast" }, fal.configured),
    ).toMatchObject({ endpoint: "fal-ai/veo3/fast/image-to-video" });
    expect(resolveRunTarget(veo3, new Set(), { model: "fast" }, fal.configured)).toMatchObject({
      endpoint: "fal-ai/veo3/fast",
    });
  });
});

describe("estimateGraphRun: what a run of several nodes is expected to cost", () => {
  const veo = (id: string, data: Record<string, unknown> = {}) => ({
    id,
    type: "veo3-video",
    data: { inputValues: { prompt: { value: "waves" }, duration: { value: "4s" } }, ...data },
  });

  it("adds the steps' estimates; a node unchanged since it completed counts for nothing", () => {
    const nodes = [veo("a"), veo("b"), { id: "t", type: "text", data: {} }];
    const graph = { nodes, edges: [] };
    expect(estimateGraphRun(graph, ["a", "b", "t"], fal)).toEqual({ usd: 3.2, unknown: 0 });
    const signature = runSignatureOf(nodes, [], "b");
    const done = [veo("a"), veo("b", { status: "complete", runSignature: signature })];
    expect(estimateGraphRun({ nodes: done, edges: [] }, ["a", "b"], fal)).toEqual({
      usd: 1.6,
      unknown: 0,
    });
  });
});
