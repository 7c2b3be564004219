import { applyLevels, DEFAULT_LEVELS } from "@atelier/core";
import { act, cleanup, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type Call, fakeCanvas, fakeImages, showPreview } from "./processing-fakes.tsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const resultSize = () => screen.getByRole("status", { name: "Result size" }).textContent;
const draws = (calls: Call[]) =>
  calls.filter((call) => call.name === "drawImage").map((call) => call.args.slice(1));

// A 2×1 image's pixels as the fake canvas reads them: a reddish and a grey one.
const PIXELS = [200, 40, 40, 255, 90, 90, 90, 255];

describe("resize, levels and reframe previews", () => {
  let calls: Call[];
  beforeEach(() => {
    fakeImages(160, 120);
    calls = fakeCanvas((w, h) => {
      const data = new Uint8ClampedArray(w * h * 4);
      for (let i = 0; i < data.length; i++) data[i] = PIXELS[i % PIXELS.length] as number;
      return data;
    });
  });

  it("resize draws the planned region with the output size", async () => {
    showPreview("resize", { width: 100, height: 100, fit: "cover" });
    await screen.findByRole("img", { name: "Resized image" });
    expect(resultSize()).toBe("100 × 100 px");
    // cover: the centred 120×120 of the 160×120 source fills the square preview (1.8 px/px).
    const [from] = draws(calls).slice(-1);
    expect(from?.slice(0, 4)).toEqual([20, 0, 120, 120]);
    expect(from?.slice(4).map((value) => Math.round(Number(value)))).toEqual([0, 0, 180, 180]);
  });

  it("resize letterboxes with contain, padding opaque images black", async () => {
    showPreview("resize", { width: 200, height: 100, fit: "contain" });
    await screen.findByRole("img", { name: "Resized image" });
    expect(resultSize()).toBe("200 × 100 px");
    expect(calls.some((call) => call.name === "fillRect")).toBe(true);
    const [from] = draws(calls).slice(-1);
    // 133×100 centred in 200×100, at 1.42 preview px per output px.
    expect(from?.slice(0, 4)).toEqual([0, 0, 160, 120]);
    expect(from?.slice(4).map((value) => Math.round(Number(value) / 1.42))).toEqual([
      33, 0, 133, 100,
    ]);
  });

  it("levels maps the preview's pixels with core's applyLevels", async () => {
    const levels = { blackPoint: 20, whitePoint: 220, gamma: 1.4, saturation: 0.5 };
    showPreview("levels", levels);
    await screen.findByRole("img", { name: "Image with levels" });
    const put = calls.find((call) => call.name === "putImageData") as Call;
    const data = (put.args[0] as { data: Uint8ClampedArray }).data;
    const expected = new Uint8ClampedArray(PIXELS);
    applyLevels(expected, 4, levels);
    expect(Array.from(data.slice(0, 8))).toEqual(Array.from(expected));
    expect(resultSize()).toBe("160 × 120 px");
  });

  it("levels explains a black point above the white point instead of drawing", async () => {
    showPreview("levels", { ...DEFAULT_LEVELS, blackPoint: 200, whitePoint: 100 });
    expect((await screen.findByRole("alert")).textContent).toBe(
      'Levels: "blackPoint" (200) must be below "whitePoint" (100)',
    );
    expect(calls.some((call) => call.name === "putImageData")).toBe(false);
  });

  it("reframe shows the new frame's size, the original centred over a blurred fill", async () => {
    showPreview("reframe", { aspectRatio: "16:9" });
    await screen.findByRole("img", { name: "Reframed image" });
    expect(resultSize()).toBe("213 × 120 px (16:9)");
    const [backdrop, original] = draws(calls).slice(-2);
    expect(backdrop?.slice(0, 4)).toEqual([0, 15, 160, 90]);
    expect(original?.slice(0, 4)).toEqual([0, 0, 160, 120]);
    expect(Math.round(Number(original?.[4]) / (284 / 213))).toBe(26);
  });

  it("draws again when its parameters change, not when another node does", async () => {
    const { store } = showPreview("resize", { width: 100, height: 100, fit: "fill" });
    await screen.findByRole("img", { name: "Resized image" });
    const before = draws(calls).length;
    act(() => store.getState().setParam("other", "text", "still unrelated"));
    act(() => store.getState().updateNodeData("target", { status: "processing" }));
    expect(draws(calls).length).toBe(before);
    act(() => store.getState().setParam("target", "width", 50));
    expect(draws(calls).length).toBe(before + 1);
    expect(resultSize()).toBe("50 × 100 px");
  });
});
