import { serializeWorkflow } from "@atelier/core";
import { describe, expect, it } from "vitest";
import { sceneSources } from "../src/features/nodes/special/scene/scene-sources.ts";
import {
  backgroundColor,
  DEFAULT_BACKGROUND,
  defaultCamera,
  defaultPlacement,
  lensFov,
  nudge,
  type Placement,
  placementsOf,
  readLayout,
  type SceneSource,
  sceneSignature,
  withCamera,
  withPlacement,
} from "../src/features/nodes/special/scene/scene-state.ts";
import { wire as edge, node } from "./helpers/graph.ts";

const value = (url: string | string[]) => ({ value: url });
const still: Placement = { position: [0, 0, 0], rotation: [0, 0, 0], scale: [1, 1, 1] };
const source = (key: string, kind: "model" | "image" = "model"): SceneSource => ({
  key,
  kind,
  url: `https://x.test/${key}`,
  label: key,
});

describe("what is wired into a scene", () => {
  const graph = () => ({
    nodes: [
      node("s", "scene-composer"),
      node("m", "3d", {
        label: "Hunyuan 3D",
        outputValues: { model: value("https://x.test/a.glb") },
      }),
      node("m2", "3d", { outputs: { glbUrl: "https://x.test/b.glb" } }),
      node("i", "flux-pro", {
        label: "FLUX",
        outputValues: { image: value(["https://x.test/1.png", "https://x.test/2.png"]) },
      }),
      node("empty", "flux-pro", { label: "Nothing yet" }),
      node("other", "kling-video"),
    ],
    edges: [
      edge("m", "model", "s", "model"),
      edge("m2", "model", "s", "model"),
      edge("i", "image", "s", "image"),
      edge("empty", "image", "s", "image"),
      edge("i", "image", "other", "image"),
    ],
  });

  it("lists one item per value, keyed by source node and port, named after the source", () => {
    const { nodes, edges } = graph();
    expect(sceneSources(nodes, edges, "s")).toEqual([
      { key: "m/model/0", kind: "model", url: "https://x.test/a.glb", label: "Hunyuan 3D" },
      // Two nodes with the same name are told apart.
      { key: "m2/model/0", kind: "model", url: "https://x.test/b.glb", label: "Hunyuan 3D (2)" },
      { key: "i/image/0", kind: "image", url: "https://x.test/1.png", label: "FLUX 1" },
      { key: "i/image/1", kind: "image", url: "https://x.test/2.png", label: "FLUX 2" },
    ]);
  });

  it("keeps an item's key (and so its placement) when its source runs again", () => {
    const { nodes, edges } = graph();
    const rerun = nodes.map((n) =>
      n.id === "m"
        ? { ...n, data: { ...n.data, outputValues: { model: value("https://x.test/new.glb") } } }
        : n,
    );
    const [first] = sceneSources(rerun, edges, "s");
    expect(first).toMatchObject({ key: "m/model/0", url: "https://x.test/new.glb" });
  });

  it("is empty without wires, and for an unknown node", () => {
    const { nodes } = graph();
    expect(sceneSources(nodes, [], "s")).toEqual([]);
    expect(sceneSources([], graph().edges, "s")).toEqual([]);
  });
});

describe("the scene layout", () => {
  it("reads a saved layout leniently: a damaged item or camera is dropped, not the rest", () => {
    const layout = readLayout({
      items: {
        good: { position: [1, 2, 3], rotation: [0, 0.5, 0], scale: [2, 2, 2], hidden: true },
        bad: { position: [1, 2], rotation: [0, 0, 0], scale: [1, 1, 1] },
        worse: "nope",
      },
      camera: { position: [0, 1, "x"], target: [0, 0, 0] },
    });
    expect(layout.items).toEqual({
      good: { position: [1, 2, 3], rotation: [0, 0.5, 0], scale: [2, 2, 2], hidden: true },
    });
    expect(layout.camera).toBeNull();
    expect(readLayout(undefined)).toEqual({ items: {}, camera: null });
    expect(readLayout("garbage")).toEqual({ items: {}, camera: null });
  });

  it("stands unplaced items in a row centred on the origin; saved ones where they were put", () => {
    expect(defaultPlacement(0, 1).position).toEqual([0, 0, 0]);
    expect([0, 1, 2].map((index) => defaultPlacement(index, 3).position[0])).toEqual([
      -1.4, 0, 1.4,
    ]);
    const sources = [source("a"), source("b")];
    const placed = { position: [5, 0, 0], rotation: [0, 0, 0], scale: [1, 1, 1] } as Placement;
    const placements = placementsOf({ items: { b: placed }, camera: null }, sources);
    expect(placements.get("a")?.position).toEqual([-0.7, 0, 0]);
    expect(placements.get("b")).toBe(placed);
  });

  it("saves a placement rounded, and forgets items that are no longer wired in", () => {
    const layout = {
      items: { gone: still, b: { ...still, position: [1, 1, 1] as [number, number, number] } },
      camera: null,
    };
    const next = withPlacement(layout, [source("a"), source("b")], "a", {
      position: [0.123456, -0.00001, 2],
      rotation: [Math.PI, 0, 0],
      scale: [1, 1, 1],
      hidden: true,
    });
    expect(next.items).toEqual({
      a: {
        position: [0.1235, 0, 2],
        rotation: [Math.round(Math.PI * 1e4) / 1e4, 0, 0],
        scale: [1, 1, 1],
        hidden: true,
      },
      b: { ...still, position: [1, 1, 1] },
    });
    expect(layout.items.gone).toBe(still); // the old layout is left as it was
    expect(withCamera(next, { position: [1.23456, 2, 3], target: [0, 0.5, 0] }).camera).toEqual({
      position: [1.2346, 2, 3],
      target: [0, 0.5, 0],
    });
  });

  it("survives saving: the layout rides in inputValues.scene through serialization", () => {
    const layout = withPlacement({ items: {}, camera: null }, [source("a")], "a", still);
    const saved = serializeWorkflow(
      [node("s", "scene-composer", { inputValues: { scene: { value: layout } } })],
      [],
    );
    expect(readLayout(saved.nodes[0]?.data.inputValues?.scene?.value)).toEqual(layout);
  });

  it("nudges with the arrows: move, rotate by 15°, scale by 10 %; other keys do nothing", () => {
    expect(nudge(still, "translate", "ArrowRight")?.position).toEqual([0.1, 0, 0]);
    expect(nudge(still, "translate", "ArrowUp")?.position).toEqual([0, 0.1, 0]);
    expect(nudge(still, "translate", "ArrowUp", true)?.position).toEqual([0, 0, -0.1]);
    expect(nudge(still, "rotate", "ArrowLeft")?.rotation).toEqual([0, -0.2618, 0]);
    expect(nudge(still, "rotate", "ArrowDown")?.rotation).toEqual([-0.2618, 0, 0]);
    expect(nudge(still, "scale", "ArrowUp")?.scale).toEqual([1.1, 1.1, 1.1]);
    expect(nudge(still, "scale", "ArrowLeft")?.scale).toEqual([0.9091, 0.9091, 0.9091]);
    expect(nudge({ ...still, hidden: true }, "translate", "ArrowRight")?.hidden).toBe(true);
    expect(nudge(still, "translate", "x")).toBeNull();
  });

  it("turns the lens choice into a vertical field of view, and frames wider rows from further", () => {
    expect(lensFov("35")).toBeCloseTo(37.85, 1);
    expect(lensFov("50")).toBeCloseTo(26.99, 1);
    expect(lensFov(85)).toBeCloseTo(16.07, 1);
    expect(lensFov("wide")).toBe(lensFov(50));
    const near = defaultCamera(1, lensFov(50), 16 / 9);
    const far = defaultCamera(6, lensFov(50), 16 / 9);
    expect(near.target).toEqual([0, 0.5, 0]);
    expect(far.position[2]).toBeGreaterThan(near.position[2]);
    expect(defaultCamera(1, lensFov(85), 16 / 9).position[2]).toBeGreaterThan(near.position[2]);
  });

  it("takes a hex background, else the default", () => {
    expect(backgroundColor("#ABC")).toBe("#aabbcc");
    expect(backgroundColor(" #102030 ")).toBe("#102030");
    expect(backgroundColor("red; background: url(x)")).toBe(DEFAULT_BACKGROUND);
    expect(backgroundColor(undefined)).toBe(DEFAULT_BACKGROUND);
  });

  it("signs what a capture shows: hidden items do not count, the camera does", () => {
    const camera = { position: [0, 1, 4], target: [0, 0.5, 0] } as const;
    const items = [{ key: "a", url: "u", placement: still }];
    const signed = sceneSignature(items, { ...camera } as never, 50, "#000000");
    const hiddenToo = [...items, { key: "b", url: "v", placement: { ...still, hidden: true } }];
    expect(sceneSignature(hiddenToo, { ...camera } as never, 50, "#000000")).toBe(signed);
    const moved = { position: [0, 1, 5], target: [0, 0.5, 0] } as never;
    expect(sceneSignature(items, moved, 50, "#000000")).not.toBe(signed);
    expect(sceneSignature(items, { ...camera } as never, 85, "#000000")).not.toBe(signed);
  });
});
