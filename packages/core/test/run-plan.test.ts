import { describe, expect, it } from "vitest";
import { type GraphEdge, planRun, RUN_PLAN_MESSAGES, type RunNode } from "../src/index.ts";

const node = (id: string, type: string, values: Record<string, unknown> = {}): RunNode => ({
  id,
  type,
  data: {
    label: id.toUpperCase(),
    inputValues: Object.fromEntries(Object.entries(values).map(([k, value]) => [k, { value }])),
  },
});
const wire = (source: string, target: string, targetHandle: string): GraphEdge => ({
  id: `${source}-${target}`,
  source,
  target,
  sourceHandle: null,
  targetHandle,
});

/** text → image → video → upscale: the four-step chain of the issue. */
const chain = {
  nodes: [
    node("t", "text", { text: "a lighthouse at dusk" }),
    node("img", "flux-pro"),
    node("vid", "seedance", { prompt: "a slow push-in" }),
    node("up", "video-upscaler"),
  ],
  edges: [wire("t", "img", "prompt"), wire("img", "vid", "image"), wire("vid", "up", "video")],
};

describe("planRun", () => {
  it("orders the steps and names what each waits for; sources are read, not run", () => {
    const result = planRun(chain);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.plan.steps).toEqual([
      { id: "img", type: "flux-pro", feeders: [] },
      { id: "vid", type: "seedance", feeders: ["img"] },
      { id: "up", type: "video-upscaler", feeders: expect.arrayContaining(["img", "vid"]) },
    ]);
    expect(result.plan.nodes.map((n) => n.id).sort()).toEqual(["img", "t", "up", "vid"]);
  });

  it("runs to here: the node and what feeds it, nothing downstream", () => {
    const result = planRun(chain, { upTo: "vid" });
    expect(result.ok && result.plan.steps.map((step) => step.id)).toEqual(["img", "vid"]);
  });

  it("runs a list of nodes alone; an unlisted feeder's current output is its input", () => {
    const withResult = {
      ...chain,
      nodes: chain.nodes.map((n) =>
        n.id === "vid"
          ? { ...n, data: { ...n.data, outputs: { videoUrl: "/api/media/file/v.mp4" } } }
          : n,
      ),
    };
    const result = planRun(withResult, { nodes: ["up"] });
    expect(result.ok && result.plan.steps).toEqual([
      { id: "up", type: "video-upscaler", feeders: [] },
    ]);
    expect(planRun(chain, { nodes: ["up"] })).toEqual({
      ok: false,
      message: RUN_PLAN_MESSAGES.missingInput("Video", '"UP"'),
    });
  });

  it("applies overrides, and refuses unknown nodes, parameters and wrong types", () => {
    const result = planRun(
      chain,
      { all: true },
      { t: { text: "a harbour" }, img: { numImages: 2 } },
    );
    expect(result.ok).toBe(true);
    if (result.ok) {
      const text = result.plan.nodes.find((n) => n.id === "t");
      expect(text?.data.inputValues?.text?.value).toBe("a harbour");
    }
    expect(planRun(chain, { upTo: "nope" })).toEqual({
      ok: false,
      message: "Unknown node: nope",
    });
    expect(planRun(chain, { all: true }, { ghost: { text: "x" } })).toEqual({
      ok: false,
      message: "Unknown node: ghost",
    });
    expect(planRun(chain, { all: true }, { img: { colour: "red" } })).toEqual({
      ok: false,
      message: 'Unknown parameter colour of "IMG"',
    });
    expect(planRun(chain, { all: true }, { img: { numImages: "two" } })).toEqual({
      ok: false,
      message: 'Invalid parameter numImages of "IMG": Expected a number',
    });
  });

  it("refuses an unknown model, a cycle, a missing input, and a target with nothing to run", () => {
    const unknown = { ...chain, nodes: [...chain.nodes, node("x", "no-such-model")] };
    expect(planRun(unknown)).toEqual({ ok: false, message: "Unknown model: no-such-model" });
    const cyclic = { ...chain, edges: [...chain.edges, wire("up", "img", "image")] };
    const cycle = planRun(cyclic);
    expect(cycle.ok).toBe(false);
    expect(!cycle.ok && cycle.message).toMatch(/^Cannot run: the graph has a cycle \(".*" → .*\)$/);
    const unwired = { nodes: [node("img", "flux-pro")], edges: [] };
    expect(planRun(unwired)).toEqual({
      ok: false,
      message: 'Missing required input: Prompt of "IMG"',
    });
    // Its own prompt parameter fills the port.
    expect(planRun({ nodes: [node("img", "flux-pro", { prompt: "a cat" })], edges: [] }).ok).toBe(
      true,
    );
    expect(planRun({ nodes: [node("t", "text")], edges: [] })).toEqual({
      ok: false,
      message: RUN_PLAN_MESSAGES.nothingToRun,
    });
  });
});
