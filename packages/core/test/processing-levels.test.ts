import { describe, expect, it } from "vitest";
import { applyLevels, DEFAULT_LEVELS, levelsLut, levelsProblem } from "../src/index.ts";

describe("levels mapping", () => {
  it("stretches black and white points, then applies gamma", () => {
    const lut = levelsLut({ blackPoint: 64, whitePoint: 192, gamma: 1 });
    expect([lut[0], lut[64], lut[128], lut[192], lut[255]]).toEqual([0, 0, 128, 255, 255]);
    const gamma = levelsLut({ blackPoint: 0, whitePoint: 255, gamma: 2 });
    expect(gamma[64]).toBe(Math.round(255 * (64 / 255) ** 0.5));
    expect(Array.from(levelsLut(DEFAULT_LEVELS))).toEqual(Array.from({ length: 256 }, (_, v) => v));
  });

  it("desaturates to grey and leaves alpha alone", () => {
    const pixels = new Uint8ClampedArray([200, 40, 40, 128, 10, 20, 30, 255]);
    applyLevels(pixels, 4, { ...DEFAULT_LEVELS, saturation: 0 });
    const grey = Math.round(0.2126 * 200 + 0.7152 * 40 + 0.0722 * 40);
    expect(Array.from(pixels.slice(0, 4))).toEqual([grey, grey, grey, 128]);
    expect(pixels[7]).toBe(255);
    expect(pixels[4]).toBe(pixels[5]);
  });

  it("boosts saturation within 0–255 and keeps greys grey", () => {
    const pixels = new Uint8Array([200, 40, 40, 90, 90, 90]);
    applyLevels(pixels, 3, { ...DEFAULT_LEVELS, saturation: 2 });
    expect(pixels[0]).toBe(255);
    expect(pixels[1]).toBe(6); // 74 + 2 × (40 − 74), 74 being the luma
    expect(Array.from(pixels.slice(3))).toEqual([90, 90, 90]);
  });

  it("maps grey pixels through the table only", () => {
    const pixels = new Uint8Array([64, 255, 192, 0]);
    applyLevels(pixels, 2, { blackPoint: 64, whitePoint: 192, gamma: 1, saturation: 0 });
    expect(Array.from(pixels)).toEqual([0, 255, 255, 0]);
  });

  it("names a black point at or above the white point", () => {
    expect(levelsProblem({ ...DEFAULT_LEVELS, blackPoint: 200, whitePoint: 100 })).toBe(
      '"blackPoint" (200) must be below "whitePoint" (100)',
    );
    expect(levelsProblem(DEFAULT_LEVELS)).toBeNull();
  });
});
