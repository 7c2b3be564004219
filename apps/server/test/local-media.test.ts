import sharp from "sharp";
import { describe, expect, it } from "vitest";
import {
  IMAGE_OPERATIONS,
  keyTerms,
  LOCAL_TEXT_LABEL,
  LocalMediaError,
  mulberry32,
  processImage,
  renderAudio,
  renderImage,
  renderModel,
  renderText,
  renderVideo,
  STYLES,
  seedFrom,
} from "../src/providers/local/media/index.ts";

// ---------- decoders used by the assertions ----------

async function rawOf(bytes: Uint8Array) {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const px = (x: number, y: number) => {
    const i = (y * info.width + x) * info.channels;
    return Array.from(data.subarray(i, i + info.channels));
  };
  return { data, info, px };
}

/** Mean absolute difference per channel value between two same-sized decoded images. */
async function meanDiff(a: Uint8Array, b: Uint8Array): Promise<number> {
  const ra = await sharp(a).removeAlpha().raw().toBuffer();
  const rb = await sharp(b).removeAlpha().raw().toBuffer();
  expect(ra.length).toBe(rb.length);
  let sum = 0;
  for (let i = 0; i < ra.length; i++) sum += Math.abs((ra[i] ?? 0) - (rb[i] ?? 0));
  return sum / ra.length;
}

interface Ebml {
  id: number;
  data: Buffer;
  start: number;
}

/** Reads the EBML elements in `buf` (one level). IDs keep their marker bits, sizes drop them. */
function ebml(buf: Buffer): Ebml[] {
  const out: Ebml[] = [];
  let pos = 0;
  const vint = (keepMarker: boolean) => {
    const first = buf[pos] ?? 0;
    let length = 1;
    while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
    let value = keepMarker ? first : first & (0xff >> length);
    for (let i = 1; i < length; i++) value = value * 256 + (buf[pos + i] ?? 0);
    pos += length;
    return value;
  };
  while (pos < buf.length) {
    const start = pos;
    const id = vint(true);
    const size = vint(false);
    out.push({ id, data: buf.subarray(pos, pos + size), start });
    pos += size;
  }
  return out;
}
const child = (list: Ebml[], id: number) => {
  const found = list.find((e) => e.id === id);
  if (!found) throw new Error(`EBML element 0x${id.toString(16)} missing`);
  return found;
};
const uintOf = (e: Ebml) => e.data.reduce((v, b) => v * 256 + b, 0);

function parseWav(wav: Buffer) {
  return {
    riff: wav.toString("ascii", 0, 4),
    riffSize: wav.readUInt32LE(4),
    wave: wav.toString("ascii", 8, 12),
    fmt: wav.toString("ascii", 12, 16),
    fmtSize: wav.readUInt32LE(16),
    audioFormat: wav.readUInt16LE(20),
    channels: wav.readUInt16LE(22),
    sampleRate: wav.readUInt32LE(24),
    byteRate: wav.readUInt32LE(28),
    blockAlign: wav.readUInt16LE(32),
    bitsPerSample: wav.readUInt16LE(34),
    dataTag: wav.toString("ascii", 36, 40),
    dataSize: wav.readUInt32LE(40),
    samples: Array.from({ length: (wav.length - 44) / 2 }, (_, i) => wav.readInt16LE(44 + i * 2)),
  };
}

function parseGlb(glb: Buffer) {
  const jsonLength = glb.readUInt32LE(12);
  const binStart = 20 + jsonLength;
  return {
    magic: glb.readUInt32LE(0),
    version: glb.readUInt32LE(4),
    length: glb.readUInt32LE(8),
    jsonType: glb.readUInt32LE(16),
    json: JSON.parse(glb.toString("utf8", 20, 20 + jsonLength)),
    binLength: glb.readUInt32LE(binStart),
    binType: glb.readUInt32LE(binStart + 4),
    bin: glb.subarray(binStart + 8, binStart + 8 + glb.readUInt32LE(binStart)),
  };
}

async function pngOf(width: number, height: number, pixel: (x: number, y: number) => number[]) {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data.set(pixel(x, y), (y * width + x) * 3);
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

// ---------- tests ----------

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

describe("renderAudio", () => {
  it.each(["speech", "music", "sfx"] as const)(
    "writes a PCM16 mono WAV of %s with the exact sample count",
    (kind) => {
      const wav = parseWav(renderAudio({ seed: 9, durationSeconds: 1.5, sampleRate: 22050, kind }));
      expect(wav).toMatchObject({
        riff: "RIFF",
        wave: "WAVE",
        fmt: "fmt ",
        fmtSize: 16,
        audioFormat: 1,
        channels: 1,
        sampleRate: 22050,
        byteRate: 44100,
        blockAlign: 2,
        bitsPerSample: 16,
        dataTag: "data",
        dataSize: 33075 * 2,
        riffSize: 36 + 33075 * 2,
      });
      expect(wav.samples.length).toBe(33075);
      const peak = Math.max(...wav.samples.map(Math.abs));
      expect(peak).toBeGreaterThan(28000); // normalised to about −1 dBFS
      expect(peak).toBeLessThanOrEqual(29200);
      const rms = Math.sqrt(wav.samples.reduce((s, v) => s + v * v, 0) / wav.samples.length);
      expect(rms).toBeGreaterThan(1000); // audible, not silence
      expect(Math.abs(wav.samples[0] ?? 1)).toBe(0); // faded in
    },
  );

  it("defaults to 44.1 kHz, is deterministic and varies with seed and kind", () => {
    const a = renderAudio({ seed: 1, durationSeconds: 0.5, kind: "music" });
    expect(parseWav(a).sampleRate).toBe(44100);
    expect(a.length).toBe(44 + 22050 * 2);
    expect(renderAudio({ seed: 1, durationSeconds: 0.5, kind: "music" }).equals(a)).toBe(true);
    expect(renderAudio({ seed: 2, durationSeconds: 0.5, kind: "music" }).equals(a)).toBe(false);
    expect(renderAudio({ seed: 1, durationSeconds: 0.5, kind: "speech" }).equals(a)).toBe(false);
  });

  it("rejects bad options", () => {
    expect(() => renderAudio({ seed: 1, durationSeconds: 0 })).toThrow(
      'audio: "durationSeconds" must be a number from 0.001 to 600 (got 0)',
    );
    expect(() => renderAudio({ seed: 1, durationSeconds: 1, sampleRate: 1000 })).toThrow(
      LocalMediaError,
    );
  });
});

describe("renderVideo", () => {
  it("writes a WebM with one VP8 track whose frames decode, and a matching captured frame", async () => {
    const video = await renderVideo({
      prompt: "waves",
      seed: 4,
      width: 320,
      height: 180,
      durationSeconds: 2,
      fps: 12,
    });
    expect(video).toMatchObject({ contentType: "video/webm", frameCount: 24, durationSeconds: 2 });
    const [header, segment, ...rest] = ebml(video.bytes);
    expect(rest).toHaveLength(0);
    expect(header?.id).toBe(0x1a45dfa3);
    expect(child(ebml(header?.data ?? Buffer.alloc(0)), 0x4282).data.toString()).toBe("webm");
    expect(segment?.id).toBe(0x18538067);
    const top = ebml(segment?.data ?? Buffer.alloc(0));
    expect(child(ebml(child(top, 0x1549a966).data), 0x4489).data.readDoubleBE()).toBe(2000);
    const track = ebml(child(ebml(child(top, 0x1654ae6b).data), 0xae).data);
    expect(child(track, 0x86).data.toString()).toBe("V_VP8");
    const dims = ebml(child(track, 0xe0).data);
    expect([uintOf(child(dims, 0xb0)), uintOf(child(dims, 0xba))]).toEqual([320, 180]);

    const clusters = top.filter((e) => e.id === 0x1f43b675);
    const blocks = clusters.flatMap((c) => ebml(c.data).filter((e) => e.id === 0xa3));
    expect(blocks).toHaveLength(24);
    // Cues point at the clusters (positions are relative to the segment's data).
    const cuePositions = ebml(child(top, 0x1c53bb6b).data).map((point) =>
      uintOf(child(ebml(child(ebml(point.data), 0xb7).data), 0xf1)),
    );
    expect(cuePositions).toEqual(clusters.map((c) => c.start));

    for (const block of blocks) {
      expect([block.data[0], block.data[3]]).toEqual([0x81, 0x80]); // track 1, keyframe
      const vp8 = block.data.subarray(4);
      expect([...vp8.subarray(3, 6)]).toEqual([0x9d, 0x01, 0x2a]); // VP8 keyframe start code
      expect([vp8.readUInt16LE(6) & 0x3fff, vp8.readUInt16LE(8) & 0x3fff]).toEqual([320, 180]);
    }
    // Decode the first VP8 frame (wrapped back into a WebP) and compare it to the captured frame.
    const vp8 = blocks[0]?.data.subarray(4) ?? Buffer.alloc(0);
    const chunk = Buffer.concat([
      Buffer.from("VP8 "),
      Buffer.alloc(4),
      vp8,
      Buffer.alloc(vp8.length % 2),
    ]);
    chunk.writeUInt32LE(vp8.length, 4);
    const webp = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WEBP"), chunk]);
    webp.writeUInt32LE(webp.length - 8, 4);
    const frameMeta = await sharp(video.capturedFrame).metadata();
    expect([frameMeta.format, frameMeta.width, frameMeta.height]).toEqual(["png", 320, 180]);
    expect(await meanDiff(webp, video.capturedFrame)).toBeLessThan(6);
    // The last frame differs from the first: the video moves.
    const last = blocks[23]?.data.subarray(4) ?? Buffer.alloc(0);
    expect(last.equals(vp8)).toBe(false);
  });

  it("is deterministic, varies with the seed and validates options", async () => {
    const options = { prompt: "p", seed: 1, width: 64, height: 48, durationSeconds: 0.5, fps: 8 };
    const a = await renderVideo(options);
    expect((await renderVideo(options)).bytes.equals(a.bytes)).toBe(true);
    expect((await renderVideo({ ...options, seed: 2 })).bytes.equals(a.bytes)).toBe(false);
    await expect(renderVideo({ ...options, fps: 0 })).rejects.toThrow(
      'video: "fps" must be a number from 1 to 60 (got 0)',
    );
  });
});

describe("renderModel", () => {
  it("writes a consistent glTF 2.0 binary and a snapshot", async () => {
    const model = await renderModel({ prompt: "a ceramic vase", seed: 2 });
    const glb = parseGlb(model.glb);
    expect([glb.magic, glb.version, glb.length]).toEqual([0x46546c67, 2, model.glb.length]);
    expect([glb.jsonType, glb.binType]).toEqual([0x4e4f534a, 0x004e4942]);
    const { json, bin } = glb;
    expect(json.asset.version).toBe("2.0");
    expect(json.buffers[0].byteLength).toBe(bin.length);
    expect(bin.length % 4).toBe(0);
    const sizes: Record<string, number> = { SCALAR: 1, VEC3: 3 };
    const bytesOf: Record<number, number> = { 5126: 4, 5123: 2, 5125: 4 };
    for (const accessor of json.accessors) {
      const view = json.bufferViews[accessor.bufferView];
      expect(view.byteOffset % 4).toBe(0);
      expect(view.byteOffset + view.byteLength).toBeLessThanOrEqual(bin.length);
      expect(
        accessor.count * (sizes[accessor.type] ?? 0) * (bytesOf[accessor.componentType] ?? 0),
      ).toBe(view.byteLength);
    }
    const primitive = json.meshes[0].primitives[0];
    const floats = (index: number) => {
      const view = json.bufferViews[json.accessors[index].bufferView];
      return new Float32Array(
        bin.buffer.slice(
          bin.byteOffset + view.byteOffset,
          bin.byteOffset + view.byteOffset + view.byteLength,
        ),
      );
    };
    const positions = floats(primitive.attributes.POSITION);
    const normals = floats(primitive.attributes.NORMAL);
    const vertexCount = positions.length / 3;
    const posAccessor = json.accessors[primitive.attributes.POSITION];
    for (let c = 0; c < 3; c++) {
      const values = Array.from(positions.filter((_, i) => i % 3 === c));
      expect(posAccessor.min[c]).toBe(Math.min(...values));
      expect(posAccessor.max[c]).toBe(Math.max(...values));
    }
    const indexView = json.bufferViews[json.accessors[primitive.indices].bufferView];
    const indices = new Uint16Array(
      bin.buffer.slice(
        bin.byteOffset + indexView.byteOffset,
        bin.byteOffset + indexView.byteOffset + indexView.byteLength,
      ),
    );
    expect(indices.length % 3).toBe(0);
    expect(Math.max(...indices)).toBeLessThan(vertexCount);
    for (let v = 0; v < vertexCount; v++) {
      const [nx, ny, nz] = [normals[v * 3] ?? 0, normals[v * 3 + 1] ?? 0, normals[v * 3 + 2] ?? 0];
      expect(Math.hypot(nx, ny, nz)).toBeCloseTo(1, 5);
      // Outward: a normal never points towards the model's vertical axis.
      expect(
        nx * (positions[v * 3] ?? 0) + nz * (positions[v * 3 + 2] ?? 0),
      ).toBeGreaterThanOrEqual(-1e-6);
    }
    expect(json.materials[primitive.material].pbrMetallicRoughness.baseColorFactor).toHaveLength(4);
    expect(json.nodes[0].extras).toMatchObject({ prompt: "a ceramic vase", seed: 2 });

    const snapshot = await sharp(model.snapshot).metadata();
    expect([snapshot.format, snapshot.width, snapshot.height]).toEqual(["png", 512, 512]);
    const stats = await sharp(model.snapshot).stats();
    expect(stats.channels[0]?.stdev).toBeGreaterThan(10);
  });

  it("is deterministic and varies with the seed", async () => {
    const a = await renderModel({ prompt: "gem", seed: 1 });
    const b = await renderModel({ prompt: "gem", seed: 1 });
    expect(b.glb.equals(a.glb)).toBe(true);
    expect(b.snapshot.equals(a.snapshot)).toBe(true);
    expect((await renderModel({ prompt: "gem", seed: 2 })).glb.equals(a.glb)).toBe(false);
  });
});

describe("renderText", () => {
  it("answers with a labelled, deterministic placeholder that echoes the request", () => {
    const prompt = "Write a haiku about autumn leaves falling. Make it sad.";
    const text = renderText({ prompt, seed: 3 });
    expect(text.startsWith(`${LOCAL_TEXT_LABEL} `)).toBe(true);
    expect(text).toContain("“Write a haiku about autumn leaves falling.”");
    expect(text).toContain("Key terms: haiku, autumn, leaves, falling, sad.");
    expect(renderText({ prompt, seed: 3 })).toBe(text);
    const openers = new Set(Array.from({ length: 12 }, (_, seed) => renderText({ prompt, seed })));
    expect(openers.size).toBeGreaterThan(1);
    expect(renderText({ prompt: "  ", seed: 1 })).toContain("The prompt was empty");
  });

  it("never exceeds maxLength", () => {
    const prompt = "Explain photosynthesis to a child in simple words, with an example. ".repeat(
      20,
    );
    for (const maxLength of [1, 2, 10, 15, 40, 100, 333]) {
      const text = renderText({ prompt, seed: 1, maxLength });
      expect(text.length).toBeLessThanOrEqual(maxLength);
      expect(text.length).toBeGreaterThan(0);
    }
    expect(renderText({ prompt, seed: 1, maxLength: 40 }).endsWith("…")).toBe(true);
    expect(() => renderText({ prompt, seed: 1, maxLength: 0 })).toThrow(LocalMediaError);
  });

  it("extracts key terms by frequency, skipping filler words", () => {
    expect(keyTerms("the cat and the dog; the cat again, cat!", 2)).toEqual(["cat", "dog"]);
  });
});
