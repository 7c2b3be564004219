import sharp from "sharp";
import { describe, expect, it } from "vitest";
import {
  keyTerms,
  LOCAL_TEXT_LABEL,
  LocalMediaError,
  renderAudio,
  renderModel,
  renderText,
  renderVideo,
} from "../src/providers/local/media/index.ts";
import {
  child,
  ebml,
  meanDiff,
  parseGlb,
  parseWav,
  uintOf,
} from "./helpers/local-media-decoders.ts";

// Audio, video, 3D models and text; seeding and images live in local-media.test.ts.

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
