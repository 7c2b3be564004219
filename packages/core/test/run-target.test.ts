import { describe, expect, it } from "vitest";
import {
  estimateGraphNode,
  getNodeDefinition,
  type NodeDefinition,
  orderFor,
  providersOf,
  resolveRunTarget,
} from "../src/index.ts";

const definition = (type: string) => getNodeDefinition(type) as NodeDefinition;
const none = new Set<string>();

describe("resolveRunTarget: which service runs a node, at which endpoint", () => {
  it("runs on the local provider when the node's provider has no key", () => {
    expect(resolveRunTarget(definition("flux-pro"), none, {}, new Set(["local"]))).toEqual({
      kind: "local",
      endpoint: "local/flux-pro",
    });
  });

  it("uses the configured provider's default endpoint", () => {
    expect(resolveRunTarget(definition("flux-pro"), none, {}, new Set(["fal"]))).toEqual({
      kind: "provider",
      provider: "fal",
      endpoint: "fal-ai/flux-pro/v1.1",
    });
  });

  it("picks the variant by connected inputs and by parameter value", () => {
    const kling = definition("kling-video");
    const fal = new Set(["fal"]);
    const withImage = resolveRunTarget(kling, new Set(["prompt", "image"]), {}, fal);
    expect(withImage).toMatchObject({ provider: "fal" });
    expect((withImage as { endpoint: string }).endpoint).not.toBe(
      (resolveRunTarget(kling, new Set(["prompt"]), {}, fal) as { endpoint: string }).endpoint,
    );
    const veo31 = definition("veo31-video");
    expect(resolveRunTarget(veo31, new Set(["firstFrame", "lastFrame"]), {}, fal)).toMatchObject({
      endpoint: "fal-ai/veo3.1/first-last-frame-to-video",
    });
  });

  it("falls back to another configured provider a variant names", () => {
    expect(resolveRunTarget(definition("veo31-video"), none, {}, new Set(["google"]))).toEqual({
      kind: "provider",
      provider: "google",
      endpoint: "veo-3.1-generate-preview",
    });
  });

  it("keeps local operations and nodes with nothing to run as they are", () => {
    expect(resolveRunTarget(definition("crop"), none, {}, new Set(["fal"]))).toEqual({
      kind: "local",
      endpoint: "local/crop",
    });
    expect(resolveRunTarget(definition("notepad"), none, {}, new Set(["fal"]))).toEqual({
      kind: "none",
    });
  });

  it("sends open-weight nodes to ComfyUI without their provider's key, or first by PROVIDER_ORDER", () => {
    expect(providersOf("flux-spro")).toEqual(["fal", "comfyui"]);
    expect(providersOf("imagen")).toEqual(["fal"]);
    const gpu = new Set(["local", "comfyui"]);
    expect(resolveRunTarget(definition("wan-video"), none, {}, gpu)).toEqual({
      kind: "provider",
      provider: "comfyui",
      endpoint: "comfyui/wan-video",
    });
    // No template: offline.
    expect(resolveRunTarget(definition("imagen"), none, {}, gpu).kind).toBe("local");
    const both = new Set(["fal", "comfyui"]);
    expect(resolveRunTarget(definition("3d"), none, {}, both)).toMatchObject({ provider: "fal" });
    expect(resolveRunTarget(definition("3d"), none, {}, both, new Set(), ["comfyui"])).toEqual({
      kind: "provider",
      provider: "comfyui",
      endpoint: "comfyui/3d",
    });
    // The order only chooses among providers able to run the node.
    expect(
      resolveRunTarget(definition("imagen"), none, {}, both, new Set(), ["comfyui"]),
    ).toMatchObject({ provider: "fal" });
  });

  it("a node's own provider choice comes before the operator's order, in runs and estimates", () => {
    expect(orderFor({ provider: "fal" }, ["comfyui"])).toEqual(["fal", "comfyui"]);
    expect(orderFor({ provider: "" }, ["comfyui"])).toEqual(["comfyui"]);
    expect(orderFor({}, [])).toEqual([]);
    const providers = { configured: new Set(["fal", "comfyui"]), doneLocally: new Set<string>() };
    const node = (provider?: string) => ({
      id: "n",
      type: "wan-video",
      position: { x: 0, y: 0 },
      data: {
        inputValues: {
          prompt: { value: "rain" },
          ...(provider === undefined ? {} : { provider: { value: provider } }),
        },
      },
    });
    expect(estimateGraphNode(node(), [], providers)).toMatchObject({ provider: "fal" });
    expect(estimateGraphNode(node("comfyui"), [], providers)).toEqual({
      usd: 0,
      provider: "comfyui",
      endpoint: "comfyui/wan-video",
      chosen: "comfyui",
    });
    // What ComfyUI lacks for a node is told on its estimate, before a run.
    const lacking = { comfyui: { "wan-video": "ComfyUI at http://gpu cannot run Wan 2.2: …" } };
    expect(estimateGraphNode(node("comfyui"), [], { ...providers, lacking })).toMatchObject({
      provider: "comfyui",
      lacking: "ComfyUI at http://gpu cannot run Wan 2.2: …",
    });
    // A choice that cannot run here (not configured) leaves the usual order.
    const falOnly = { configured: new Set(["fal"]), doneLocally: new Set<string>() };
    expect(estimateGraphNode(node("comfyui"), [], falOnly)).toMatchObject({ provider: "fal" });
  });
});
