import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  clampCropRect,
  cropFractions,
  cropRect,
  fitAspectInside,
  getNodeDefinition,
  minCropSide,
  type NodeDefinition,
  parseAspectRatio,
  reframePlan,
  resizePlan,
  resolveRunTarget,
} from "../src/index.ts";

const crop = getNodeDefinition("crop") as NodeDefinition;

describe("crop geometry", () => {
  it("turns fractions into the pixels the server extracts", () => {
    const size = { width: 320, height: 240 };
    expect(cropRect(size, { left: 0.25, top: 0.5, width: 0.5, height: 0.25 })).toEqual({
      x: 80,
      y: 120,
      width: 160,
      height: 60,
    });
    // A fraction rounding onto the edge keeps one pixel inside; too wide is cut at the edge.
    expect(cropRect(size, { left: 0.999, top: 0, width: 0.5, height: 1 })).toEqual({
      x: 319,
      y: 0,
      width: 1,
      height: 240,
    });
  });

  it("round-trips every whole-pixel rectangle through fractions the catalogue accepts", () => {
    const cases = fc
      .record({
        width: fc.integer({ min: 1, max: 20000 }),
        height: fc.integer({ min: 1, max: 20000 }),
      })
      .chain((size) =>
        fc
          .record({
            x: fc.integer({ min: 0, max: size.width - 1 }),
            y: fc.integer({ min: 0, max: size.height - 1 }),
            w: fc.integer({ min: 1, max: size.width }),
            h: fc.integer({ min: 1, max: size.height }),
          })
          .map((r) => ({
            size,
            rect: clampCropRect({ x: r.x, y: r.y, width: r.w, height: r.h }, size),
          })),
      );
    fc.assert(
      fc.property(cases, ({ size, rect }) => {
        const fractions = cropFractions(rect, size);
        expect(crop.params.safeParse(fractions).success).toBe(true);
        expect(fractions.left + fractions.width).toBeLessThanOrEqual(1 + 1e-6);
        expect(fractions.top + fractions.height).toBeLessThanOrEqual(1 + 1e-6);
        expect(cropRect(size, fractions)).toEqual(rect);
      }),
      { numRuns: 500 },
    );
  });

  it("clamps a rectangle into the image at the catalogue's 1 % minimum", () => {
    const size = { width: 1000, height: 500 };
    expect(minCropSide(1000)).toBe(10);
    expect(clampCropRect({ x: -20, y: 490, width: 2, height: 100 }, size)).toEqual({
      x: 0,
      y: 400,
      width: 10,
      height: 100,
    });
    expect(clampCropRect({ x: 10.4, y: 0, width: 5000, height: 10.6 }, size)).toEqual({
      x: 0,
      y: 0,
      width: 1000,
      height: 11,
    });
  });

  it("fits an aspect ratio inside a selection, centred", () => {
    expect(fitAspectInside({ x: 0, y: 0, width: 320, height: 240 }, 1)).toEqual({
      x: 40,
      y: 0,
      width: 240,
      height: 240,
    });
  });
});

describe("resize geometry", () => {
  const size = { width: 320, height: 240 };
  it("plans each fit like sharp", () => {
    expect(resizePlan(size, { width: 100, height: 50 }, "cover")).toEqual({
      output: { width: 100, height: 50 },
      source: { x: 0, y: 40, width: 320, height: 160 },
      target: { x: 0, y: 0, width: 100, height: 50 },
    });
    expect(resizePlan(size, { width: 100, height: 100 }, "contain")).toEqual({
      output: { width: 100, height: 100 },
      source: { x: 0, y: 0, width: 320, height: 240 },
      target: { x: 0, y: 12, width: 100, height: 75 },
    });
    expect(resizePlan(size, { width: 100, height: 100 }, "fill").output).toEqual({
      width: 100,
      height: 100,
    });
    expect(resizePlan(size, { width: 100, height: 100 }, "inside").output).toEqual({
      width: 100,
      height: 75,
    });
    expect(resizePlan(size, { width: 100, height: 100 }, "outside").output).toEqual({
      width: 133,
      height: 100,
    });
    expect(resizePlan(size, { width: 64 }).output).toEqual({ width: 64, height: 48 });
    expect(resizePlan(size, { height: 24 }).output).toEqual({ width: 32, height: 24 });
    expect(() => resizePlan(size, {})).toThrow("resize needs a width or a height");
  });

  it("never asks for a source region outside the image", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 8192 }),
        fc.integer({ min: 1, max: 8192 }),
        fc.constantFrom("cover", "contain", "fill", "inside", "outside" as const),
        (W, H, w, h, fit) => {
          const plan = resizePlan({ width: W, height: H }, { width: w, height: h }, fit);
          const { source, target, output } = plan;
          expect(source.x + source.width).toBeLessThanOrEqual(W);
          expect(source.y + source.height).toBeLessThanOrEqual(H);
          expect(Math.min(source.x, source.y, target.x, target.y)).toBeGreaterThanOrEqual(0);
          expect(target.x + target.width).toBeLessThanOrEqual(output.width);
          expect(target.y + target.height).toBeLessThanOrEqual(output.height);
          expect(
            Math.min(source.width, source.height, target.width, target.height),
          ).toBeGreaterThan(0);
        },
      ),
    );
  });
});

describe("reframe geometry", () => {
  it("extends around the original, or crops the centre", () => {
    const size = { width: 320, height: 240 };
    expect(reframePlan(size, 16 / 9)).toEqual({
      output: { width: 427, height: 240 },
      mode: "extend",
      rect: { x: 53, y: 0, width: 320, height: 240 },
      blurSigma: 427 / 40,
      dim: 0.8,
    });
    expect(reframePlan(size, 9 / 16, "crop")).toMatchObject({
      output: { width: 135, height: 240 },
      rect: { x: 92, y: 0, width: 135, height: 240 },
    });
    expect(reframePlan(size, 1).output).toEqual({ width: 320, height: 320 });
  });

  it("reads aspect ratios", () => {
    expect(parseAspectRatio("16:9")).toBeCloseTo(16 / 9);
    expect(parseAspectRatio("9x21")).toBeCloseTo(9 / 21);
    expect(parseAspectRatio(1.5)).toBe(1.5);
    expect(parseAspectRatio("wide")).toBeNull();
    expect(parseAspectRatio("0:1")).toBeNull();
  });
});

describe("resolveRunTarget with work the server does itself", () => {
  const merge = getNodeDefinition("merge-videos") as NodeDefinition;
  const connected = new Set(["video1", "video2"]);
  it("keeps a node local when the server can do it, even with its provider's key", () => {
    expect(
      resolveRunTarget(merge, connected, {}, new Set(["fal"]), new Set(["merge-videos"])),
    ).toEqual({ kind: "local", endpoint: "local/merge-videos" });
  });
  it("otherwise uses the configured provider", () => {
    expect(resolveRunTarget(merge, connected, {}, new Set(["fal"]))).toEqual({
      kind: "provider",
      provider: "fal",
      endpoint: "fal-ai/ffmpeg-api/merge-videos",
    });
  });
});
