import { describe, expect, it } from "vitest";
import { placePopup } from "../src/ui/place-popup.ts";

const window = { width: 1280, height: 800 };
const search = { width: 300, height: 369 };

describe("placePopup", () => {
  it("opens below and right of the point when there is room", () => {
    expect(placePopup({ x: 500, y: 200 }, search, window)).toEqual({ x: 500, y: 200 });
  });

  it("flips above the point near the bottom edge (the issue: y = 790, 369 px tall)", () => {
    expect(placePopup({ x: 882, y: 790 }, search, window)).toEqual({ x: 882, y: 421 });
  });

  it("flips left of the point near the right edge, and both near the corner", () => {
    expect(placePopup({ x: 1268, y: 400 }, search, window)).toEqual({ x: 968, y: 400 });
    expect(placePopup({ x: 1268, y: 788 }, search, window)).toEqual({ x: 968, y: 419 });
  });

  it("clamps to the edge when neither side of the point has room", () => {
    // 369 px fit neither below y = 300 nor above it in a 600 px window: the box is flipped,
    // then held at the top margin, whole and in view (it covers the point).
    expect(placePopup({ x: 10, y: 300 }, search, { width: 1280, height: 600 })).toEqual({
      x: 10,
      y: 8,
    });
  });

  it("keeps the top-left reachable when the popup is larger than the window", () => {
    expect(placePopup({ x: 100, y: 100 }, search, { width: 200, height: 200 })).toEqual({
      x: 8,
      y: 8,
    });
  });

  it("keeps the given margin from every edge", () => {
    expect(placePopup({ x: 1279, y: 799 }, { width: 100, height: 50 }, window, 0)).toEqual({
      x: 1179,
      y: 749,
    });
    expect(placePopup({ x: 2, y: 2 }, { width: 100, height: 50 }, window)).toEqual({
      x: 8,
      y: 8,
    });
  });
});
