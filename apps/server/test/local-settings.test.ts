import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getNodeDefinition } from "@atelier/core";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { presentOutputs } from "../src/jobs/outputs.ts";
import { VIDEO_PIXEL_BUDGET } from "../src/providers/local/media/video.ts";
import { runLocally } from "../src/providers/local/run-local.ts";
import { imageSettings, videoSettings } from "../src/providers/local/settings.ts";
import { child, ebml, parseWav, uintOf } from "./helpers/local-media-decoders.ts";

// The local provider makes its placeholders to the node's settings: duration, resolution,
// aspect ratio, image size and count (run-local.ts, settings.ts).

const noMedia = async () => {
  throw new Error("no input media in these runs");
};

/** Runs a node offline with its catalogue defaults under `params`, as a job would. */
async function run(nodeType: string, params: Record<string, unknown>) {
  const definition = getNodeDefinition(nodeType);
  if (!definition) throw new Error(`unknown node ${nodeType}`);
  return runLocally(
    {
      nodeType,
      inputs: { prompt: "a lighthouse in a storm" },
      params: definition.params.parse(params),
    },
    noMedia,
  );
}

const mediaOf = (result: Awaited<ReturnType<typeof run>>, port: string) =>
  result.media.filter((item) => item.output === port).map((item) => Buffer.from(item.bytes ?? []));

/** Width, height and duration (seconds) from the WebM's own elements. */
function webmFacts(bytes: Buffer) {
  const [, segment] = ebml(bytes);
  const top = ebml(segment?.data ?? Buffer.alloc(0));
  const durationMs = child(ebml(child(top, 0x1549a966).data), 0x4489).data.readDoubleBE();
  const track = ebml(child(ebml(child(top, 0x1654ae6b).data), 0xae).data);
  const dims = ebml(child(track, 0xe0).data);
  const blocks = top
    .filter((e) => e.id === 0x1f43b675)
    .flatMap((cluster) => ebml(cluster.data).filter((e) => e.id === 0xa3));
  const frames = blocks.map((block) => {
    const vp8 = block.data.subarray(4);
    return [vp8.readUInt16LE(6) & 0x3fff, vp8.readUInt16LE(8) & 0x3fff];
  });
  return {
    width: uintOf(child(dims, 0xb0)),
    height: uintOf(child(dims, 0xba)),
    seconds: durationMs / 1000,
    frames,
  };
}

// ffprobe, where the machine has one, reads the files as a player would.
const ffprobe = (() => {
  try {
    execFileSync("ffprobe", ["-version"], { stdio: "ignore" });
    return "ffprobe";
  } catch {
    return null;
  }
})();
const scratch = mkdtempSync(join(tmpdir(), "atelier-local-settings-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function probe(bytes: Buffer, name: string) {
  if (!ffprobe) return null;
  const file = join(scratch, name);
  writeFileSync(file, bytes);
  const out = execFileSync(ffprobe, [
    "-v",
    "error",
    "-show_entries",
    "format=duration:stream=codec_name,width,height,sample_rate",
    "-of",
    "json",
    file,
  ]);
  const parsed = JSON.parse(out.toString()) as {
    format: { duration: string };
    streams: { codec_name: string; width?: number; height?: number; sample_rate?: string }[];
  };
  return { seconds: Number(parsed.format.duration), stream: parsed.streams[0] };
}

describe("local video follows duration, resolution and aspect ratio", () => {
  it.each([
    ["video", { duration: "8s", resolution: "720p", aspectRatio: "16:9" }, 1280, 720, 8],
    ["video", { duration: "8s", resolution: "720p", aspectRatio: "9:16" }, 720, 1280, 8],
    ["veo3-video", { duration: "4s", resolution: "1080p", aspectRatio: "16:9" }, 1920, 1080, 4],
    ["seedance", { duration: 7, resolution: "480p", aspectRatio: "1:1" }, 480, 480, 7],
    ["kling-video", { duration: "10", aspectRatio: "9:16" }, 720, 1280, 10],
    ["sora-video", { seconds: "12", size: "1280x720" }, 1280, 720, 12],
    ["runway-video", { duration: 3, ratio: "1104:832" }, 1104, 832, 3],
  ] as const)("%s %j → %i×%i, %i s", async (type, params, width, height, seconds) => {
    const result = await run(type, params);
    const [video] = mediaOf(result, "video");
    const facts = webmFacts(video ?? Buffer.alloc(0));
    expect(facts).toMatchObject({ width, height, seconds });
    // Every frame is coded at the full size, and the frames fit the render budget.
    for (const frame of facts.frames) expect(frame).toEqual([width, height]);
    expect(facts.frames.length * width * height).toBeLessThanOrEqual(
      Math.max(VIDEO_PIXEL_BUDGET, 2 * width * height),
    );
    const [frame] = mediaOf(result, "capturedFrame");
    const still = await sharp(frame).metadata();
    expect([still.format, still.width, still.height]).toEqual(["png", width, height]);
    const probed = probe(video ?? Buffer.alloc(0), `${type}-${width}x${height}.webm`);
    if (probed) {
      expect(probed.seconds).toBeCloseTo(seconds, 3);
      expect(probed.stream).toMatchObject({ codec_name: "vp8", width, height });
    }
  });

  it("reads 4k as 2160 lines and a Wan frame count at its frame rate", () => {
    expect(videoSettings({ resolution: "4k", aspectRatio: "16:9", duration: "8s" }, 2)).toEqual({
      width: 3840,
      height: 2160,
      durationSeconds: 8,
      fps: 12,
    });
    expect(
      videoSettings({ numFrames: 81, framesPerSecond: 16, resolution: "580p" }, 2),
    ).toMatchObject({ width: 1032, height: 580, durationSeconds: 81 / 16, fps: 16 });
    expect(videoSettings({ resolution: "768P" }, 2)).toMatchObject({ width: 1366, height: 768 });
    // "auto" or no setting: 16:9 at 720p, and the fallback length.
    expect(videoSettings({ aspectRatio: "auto" }, 2)).toEqual({
      width: 1280,
      height: 720,
      durationSeconds: 2,
      fps: 12,
    });
  });
});

describe("local images follow size, aspect ratio and count", () => {
  it("makes numImages images on the image port, each of the named size", async () => {
    const result = await run("flux-pro", { numImages: 3, imageSize: "landscape_4_3" });
    const images = mediaOf(result, "image");
    expect(images).toHaveLength(3);
    const metas = await Promise.all(images.map((bytes) => sharp(bytes).metadata()));
    for (const meta of metas)
      expect([meta.format, meta.width, meta.height]).toEqual(["png", 1024, 768]);
    // Three different pictures, and the job shows them as a node's several results.
    expect(new Set(images.map((bytes) => bytes.toString("base64"))).size).toBe(3);
    const definition = getNodeDefinition("flux-pro");
    if (!definition) throw new Error("flux-pro missing");
    const stored = images.map((_, i) => ({
      port: "image",
      url: `u${i}`,
      contentType: "image/png",
    }));
    const { outputs, outputValues } = presentOutputs(definition, stored);
    expect(outputs.images).toEqual(["u0", "u1", "u2"]);
    expect(outputValues.image?.value).toEqual(["u0", "u1", "u2"]);
  });

  it.each([
    ["ideogram", { imageSize: "portrait_16_9" }, 576, 1024],
    ["gpt-image", { imageSize: "1536x1024" }, 1536, 1024],
    ["imagen", { aspectRatio: "16:9", resolution: "2K" }, 2048, 1152],
    ["google-flash", { aspectRatio: "9:16" }, 576, 1024],
    ["lucid", { width: 1536, height: 768 }, 1536, 768],
    ["runway-image", { ratio: "1080:1920" }, 1080, 1920],
    ["mystic", { aspectRatio: "widescreen_16_9", resolution: "2k" }, 2048, 1152],
  ] as const)("%s %j → %i×%i", async (type, params, width, height) => {
    const images = mediaOf(await run(type, params), "image");
    expect(images).toHaveLength(1);
    const meta = await sharp(images[0]).metadata();
    expect([meta.width, meta.height]).toEqual([width, height]);
  });

  it("takes FLUX ultra's aspect ratio over its image size", () => {
    expect(
      imageSettings({ model: "v1.1-ultra", imageSize: "landscape_4_3", aspectRatio: "1:1" }),
    ).toEqual({ width: 1024, height: 1024, count: 1 });
    expect(imageSettings({ model: "v1.1", imageSize: "square", numImages: 4 })).toEqual({
      width: 512,
      height: 512,
      count: 4,
    });
  });
});

describe("local audio follows its duration", () => {
  it.each([
    ["elevenlabs-sfx", { durationSeconds: 7.5 }, 7.5, 44100],
    ["mirelo-sfx", { durationSeconds: 12 }, 12, 44100],
    ["stable-audio", { secondsTotal: 95 }, 95, 22050],
    ["minimax-music", { sampleRate: "44100" }, 3, 44100],
  ] as const)("%s %j → a %s s WAV", async (type, params, seconds, rate) => {
    const [audio] = mediaOf(await run(type, params), "audio");
    const wav = parseWav(audio ?? Buffer.alloc(0));
    expect(wav).toMatchObject({
      riff: "RIFF",
      wave: "WAVE",
      audioFormat: 1,
      channels: 1,
      sampleRate: rate,
      bitsPerSample: 16,
      dataTag: "data",
      dataSize: Math.round(seconds * rate) * 2,
    });
    expect(wav.riffSize).toBe((audio?.length ?? 0) - 8);
    expect(wav.dataSize / 2 / wav.sampleRate).toBeCloseTo(seconds, 6);
    const probed = probe(audio ?? Buffer.alloc(0), `${type}.wav`);
    if (probed) {
      expect(probed.seconds).toBeCloseTo(seconds, 3);
      expect(probed.stream).toMatchObject({ codec_name: "pcm_s16le", sample_rate: String(rate) });
    }
  });
});
