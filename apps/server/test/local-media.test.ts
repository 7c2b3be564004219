import sharp from "sharp";
import { describe, expect, it } from "vitest";
import {
  IMAGE_OPERATIONS,
  LocalMediaError,
  mulberry32,
  processImage,
  renderImage,
  STYLES,
  seedFrom,
} from "../src/providers/local/media/index.ts";
import { meanDiff, pngOf, rawOf } from "./helpers/local-media-decoders.ts";

// Seeding and images (render and process); audio, video, 3D and text live in
// local-media-av.test.ts.

describe("seeding", () => {
  it("hashes inputs stably, independent of object key order", () => {
    expect(seedFrom("a", 1)).toBe(seedFrom("a", 1));
    expect(seedFrom({ x: 1, y: [2, 3] })).toBe(seedFrom({ y: [2, 3], x: 1 }));
    expect(seedFrom("a", 1)).not.toBe(seedFrom("a", 2));
    expect(Number.isInteger(seedFrom(10n, undefined, Number.NaN))).toBe(true);
    expect(seedFrom("")).toBeGreaterThanOrEqual(0);
    expect(seedFrom("")).toBeLessThan(2 ** 32);
  });

  it("mulberry32 repeats its sequence for a seed and stays in [0, 1)", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const seq = Array.from({ length: 1000 }, () => a());
    expect(seq).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(Math.min(...seq)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...seq)).toBeLessThan(1);
    expect(new Set(seq).size).toBe(1000);
  });
});

describe("renderImage", () => {
  it.each(["png", "jpeg", "webp"] as const)(
    "writes a decodable %s of the requested size",
    async (format) => {
      const bytes = await renderImage({
        prompt: "a red fox",
        seed: 1,
        width: 300,
        height: 200,
        format,
      });
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([format, 300, 200]);
      const stats = await sharp(bytes).stats();
      // A real picture, not a flat fill: every channel varies.
      for (const channel of stats.channels.slice(0, 3)) expect(channel.stdev).toBeGreaterThan(5);
    },
  );

  it("is deterministic, and changes with the seed and the prompt", async () => {
    const base = { prompt: "harbour at night", seed: 5, width: 128, height: 96 };
    const a = await renderImage(base);
    expect((await renderImage(base)).equals(a)).toBe(true);
    expect((await renderImage({ ...base, seed: 6 })).equals(a)).toBe(false);
    expect((await renderImage({ ...base, prompt: "harbour at noon" })).equals(a)).toBe(false);
  });

  it("renders prompts full of XML-hostile characters", async () => {
    const prompt = `</text><script>alert('x')</script> & "quotes" \u0000\u0007 \uD800 ok`;
    const bytes = await renderImage({ prompt, seed: 1, width: 200, height: 120 });
    expect((await sharp(bytes).metadata()).width).toBe(200);
  });

  it("rejects sizes out of range with a clear message", async () => {
    await expect(renderImage({ prompt: "", seed: 1, width: 0, height: 10 })).rejects.toThrow(
      'image: "width" must be an integer from 1 to 4096 (got 0)',
    );
    await expect(renderImage({ prompt: "", seed: 1, width: 10, height: 5000 })).rejects.toThrow(
      LocalMediaError,
    );
  });
});

describe("processImage", () => {
  const source = () => renderImage({ prompt: "a lighthouse", seed: 3, width: 320, height: 240 });

  it("crops by fractions to exactly the selected pixels", async () => {
    const input = await source();
    const out = await processImage("crop", input, {
      left: 0.25,
      top: 0.5,
      width: 0.5,
      height: 0.25,
    });
    expect([out.format, out.width, out.height]).toEqual(["png", 160, 60]);
    const expected = await sharp(input)
      .extract({ left: 80, top: 120, width: 160, height: 60 })
      .png()
      .toBuffer();
    expect(await meanDiff(out.bytes, expected)).toBe(0);
  });

  it("crops by pixels, and to an aspect ratio inside the selection", async () => {
    const input = await source();
    const pixels = await processImage("crop", input, {
      unit: "pixel",
      left: 10,
      top: 20,
      width: 30,
      height: 40,
    });
    expect([pixels.width, pixels.height]).toEqual([30, 40]);
    const square = await processImage("crop", input, { aspectRatio: "1:1" });
    expect([square.width, square.height]).toEqual([240, 240]);
    await expect(processImage("crop", input, { left: 0.8, width: 0.5 })).rejects.toThrow(
      "crop: the rectangle runs off the image",
    );
  });

  it("resizes with each fit", async () => {
    const input = await source();
    const cover = await processImage("resize", input, { width: 100, height: 50, fit: "cover" });
    expect([cover.width, cover.height]).toEqual([100, 50]);
    const inside = await processImage("resize", input, { width: 100, height: 100, fit: "inside" });
    expect([inside.width, inside.height]).toEqual([100, 75]);
    const onlyWidth = await processImage("resize", input, { width: 64 });
    expect([onlyWidth.width, onlyWidth.height]).toEqual([64, 48]);
    await expect(processImage("resize", input, { width: 10, fit: "squash" })).rejects.toThrow(
      'resize: "fit" must be one of cover, contain, fill, inside, outside (got "squash")',
    );
  });

  it("applies levels exactly: black/white points, then gamma", async () => {
    const ramp = await pngOf(256, 1, (x) => [x, x, x]);
    const linear = await rawOf(
      (await processImage("levels", ramp, { blackPoint: 64, whitePoint: 192 })).bytes,
    );
    expect([
      linear.px(0, 0)[0],
      linear.px(64, 0)[0],
      linear.px(128, 0)[0],
      linear.px(192, 0)[0],
      linear.px(255, 0)[0],
    ]).toEqual([0, 0, 128, 255, 255]);
    const gamma = await rawOf((await processImage("levels", ramp, { gamma: 2 })).bytes);
    expect(gamma.px(64, 0)[0]).toBe(Math.round(255 * (64 / 255) ** 0.5));
    const grey = await rawOf(
      (await processImage("levels", await pngOf(4, 4, () => [200, 40, 40]), { saturation: 0 }))
        .bytes,
    );
    const [r, g, b] = grey.px(1, 1);
    expect(Math.abs((r ?? 0) - (g ?? 0)) + Math.abs((g ?? 0) - (b ?? 0))).toBeLessThanOrEqual(2);
    await expect(
      processImage("levels", ramp, { blackPoint: 200, whitePoint: 100 }),
    ).rejects.toThrow('levels: "blackPoint" (200) must be below "whitePoint" (100)');
  });

  it("reframes by extending around the untouched original, or by cropping", async () => {
    const input = await source();
    const wide = await processImage("reframe", input, { aspectRatio: "16:9" });
    expect([wide.width, wide.height]).toEqual([427, 240]);
    const centre = await sharp(wide.bytes)
      .extract({ left: 53, top: 0, width: 320, height: 240 })
      .png()
      .toBuffer();
    expect(await meanDiff(centre, input)).toBe(0);
    expect((await sharp(wide.bytes).metadata()).hasAlpha).toBe(false);
    const tall = await processImage("reframe", input, { aspectRatio: "9:16", mode: "crop" });
    expect([tall.width, tall.height]).toEqual([135, 240]);
    await expect(processImage("reframe", input, {})).rejects.toThrow(
      'reframe: "aspectRatio" is required (e.g. "16:9")',
    );
  });

  it("upscales by a factor and refuses oversized results", async () => {
    const input = await source();
    const x2 = await processImage("upscaler", input, { upscaleFactor: 2 });
    expect([x2.width, x2.height]).toEqual([640, 480]);
    const x4 = await processImage("upscale", input, { scaleFactor: "4x" });
    expect([x4.width, x4.height]).toEqual([1280, 960]);
    const strip = await pngOf(2000, 4, (x) => [x % 256, 0, 0]);
    await expect(processImage("upscaler", strip, { upscaleFactor: 10 })).rejects.toThrow(
      "upscaler: the result would be 20000×40, over the limit of 16384 pixels a side and 64 megapixels",
    );
  });

  it("removes a flat background by flood fill, keeping enclosed holes", async () => {
    // A red ring on light grey; the ring's hole is background-coloured but enclosed.
    const input = await pngOf(100, 80, (x, y) => {
      const d = Math.hypot(x - 50, y - 40);
      return d < 25 && d > 10 ? [200, 30, 30] : [235, 235, 235];
    });
    const out = await processImage("bg-remover", input, { feather: 0 });
    expect(out.format).toBe("png");
    const { px, info } = await rawOf(out.bytes);
    expect(info.channels).toBe(4);
    expect(px(2, 2)[3]).toBe(0); // corner: background
    expect(px(50, 20)[3]).toBe(255); // on the ring
    expect(px(50, 40)[3]).toBe(255); // the enclosed hole
    const soft = await rawOf((await processImage("bg-remover", input, {})).bytes);
    expect(soft.px(2, 2)[3]).toBe(0);
    await expect(processImage("bg-remover", input, { outputFormat: "jpeg" })).rejects.toThrow(
      'bg-remover: "outputFormat" must be one of png, webp (got "jpeg")',
    );
  });

  it("vectorizes into an SVG of the input's size with posterised colours", async () => {
    const out = await processImage("vectorize", await source(), { detail: 32, colors: 4 });
    const svg = out.bytes.toString("utf8");
    expect(out.contentType).toBe("image/svg+xml");
    expect(svg).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="320" height="240" viewBox="0 0 32 24"/,
    );
    const fills = [...svg.matchAll(/fill="#([0-9a-f]{6})"/g)].map((m) => m[1] ?? "");
    expect(fills.length).toBeGreaterThan(1);
    for (const fill of fills) {
      for (const pair of fill.match(/../g) ?? []) expect(["00", "55", "aa", "ff"]).toContain(pair);
    }
    const meta = await sharp(out.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["svg", 320, 240]);
  });

  it.each(STYLES)(
    "stylizes with %s, keeping the size and changing the pixels",
    async (targetStyle) => {
      const input = await source();
      const out = await processImage("stylizer", input, { targetStyle });
      expect([out.width, out.height]).toEqual([320, 240]);
      expect(await meanDiff(out.bytes, input)).toBeGreaterThan(1);
    },
  );

  it("is deterministic and keeps or converts the format", async () => {
    const jpeg = await renderImage({ prompt: "x", seed: 1, width: 64, height: 64, format: "jpeg" });
    const a = await processImage("levels", jpeg, { gamma: 1.3 });
    expect(a.format).toBe("jpeg");
    expect((await processImage("levels", jpeg, { gamma: 1.3 })).bytes.equals(a.bytes)).toBe(true);
    const webp = await processImage("resize", jpeg, { width: 32, outputFormat: "webp" });
    expect((await sharp(webp.bytes).metadata()).format).toBe("webp");
  });

  it("rejects unknown operations and unreadable input", async () => {
    await expect(processImage("melt", await source(), {})).rejects.toThrow(
      `Unknown image operation "melt" (expected one of ${IMAGE_OPERATIONS.join(", ")})`,
    );
    await expect(processImage("crop", Buffer.from("not an image"), {})).rejects.toThrow(
      "crop: the input is not a readable image",
    );
  });
});
