import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFalInput } from "../src/providers/fal/fal-input.ts";
import { FFMPEG_OFF, locateFfmpeg } from "../src/providers/local/ffmpeg/locate.ts";
import {
  type MergedVideo,
  MergeError,
  mergeAudioVideo,
  mergeVideos,
} from "../src/providers/local/ffmpeg/merge.ts";
import { FfmpegError, parseProbe, probe, runFfmpeg } from "../src/providers/local/ffmpeg/run.ts";
import { renderAudio, renderVideo } from "../src/providers/local/media/index.ts";

// The ffmpeg on PATH does the merges (Debian's `apt-get install ffmpeg` in CI).
const ffmpeg = locateFfmpeg(null) as string;
let dir: string;

/** Probes a result, and counts its decoded frames (what a player would show). */
async function inspect(video: MergedVideo | Uint8Array) {
  const bytes = video instanceof Uint8Array ? video : video.bytes;
  const file = join(dir, `probe-${Math.random().toString(36).slice(2)}.webm`);
  await writeFile(file, bytes);
  const found = await probe(ffmpeg, file);
  const decoded = await runFfmpeg(ffmpeg, ["-i", file, "-map", "0:v:0", "-f", "null", "-"]);
  const frames = Number([...decoded.matchAll(/frame=\s*(\d+)/g)].at(-1)?.[1]);
  return { ...found, frames };
}

describe("merging with a local ffmpeg", () => {
  let first: Buffer;
  let second: Buffer;
  let sound: Buffer;
  beforeAll(async () => {
    expect(ffmpeg).toBeTruthy();
    dir = await mkdtemp(join(tmpdir(), "merge-test-"));
    first = (
      await renderVideo({ prompt: "one", seed: 1, width: 320, height: 180, durationSeconds: 2 })
    ).bytes;
    second = (
      await renderVideo({
        prompt: "two",
        seed: 2,
        width: 256,
        height: 256,
        durationSeconds: 1.5,
        fps: 24,
      })
    ).bytes;
    sound = renderAudio({ seed: 3, durationSeconds: 3, kind: "music" });
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("joins two clips of different sizes and rates into one of the first's frame", async () => {
    const started = performance.now();
    const merged = await mergeVideos(ffmpeg, [first, second], {});
    const took = performance.now() - started;
    expect(merged.contentType).toBe("video/webm");
    expect(merged.bytes.subarray(0, 4).toString("hex")).toBe("1a45dfa3");
    const found = await inspect(merged);
    expect(found.duration).toBeCloseTo(3.5, 1);
    expect(found.video).toEqual({ codec: "vp8", width: 320, height: 180, fps: 12 });
    expect(found.audio).toBeNull();
    // 2 s + 1.5 s at the lowest input rate, 12 fps.
    expect(found.frames).toBe(42);
    const frame = await sharp(merged.capturedFrame).metadata();
    expect([frame.format, frame.width, frame.height]).toEqual(["png", 320, 180]);
    expect(took).toBeLessThan(20_000);
  });

  it("honours a target frame rate", async () => {
    const merged = await mergeVideos(ffmpeg, [second, first], { targetFps: 24 });
    const found = await inspect(merged);
    expect(found.video).toMatchObject({ width: 256, height: 256, fps: 24 });
    expect(found.frames).toBe(84);
  });

  it("lays a sound over a video for the video's length, from an offset", async () => {
    const merged = await mergeAudioVideo(ffmpeg, first, sound, { startOffset: 0.5 });
    const found = await inspect(merged);
    expect(found.audio).toEqual({ codec: "opus" });
    expect(found.video).toMatchObject({ codec: "vp8", width: 320, height: 180 });
    expect(found.duration).toBeCloseTo(2, 1);
    expect(found.frames).toBe(24);
    // The first half second is the offset's silence; the sound follows.
    const file = join(dir, "with-sound.webm");
    await writeFile(file, merged.bytes);
    const volume = async (from: number) =>
      Number(
        /mean_volume: (-?[\d.]+) dB/.exec(
          await runFfmpeg(ffmpeg, [
            ...["-ss", String(from), "-t", "0.4", "-i", file],
            ...["-af", "volumedetect", "-f", "null", "-"],
          ]),
        )?.[1] ?? Number.NaN,
      );
    expect(await volume(0)).toBeLessThan(-60);
    expect(await volume(1)).toBeGreaterThan(-40);
  });

  it("keeps sound in sync when only one clip has any", async () => {
    const voiced = (await mergeAudioVideo(ffmpeg, first, sound, {})).bytes;
    const merged = await mergeVideos(ffmpeg, [second, voiced], {});
    const found = await inspect(merged);
    expect(found.audio).toEqual({ codec: "opus" });
    expect(found.duration).toBeCloseTo(3.5, 1);
  });

  it("refuses inputs that are not video or sound, with a message for the user", async () => {
    const text = Buffer.from("not a video at all");
    await expect(mergeVideos(ffmpeg, [first, text], {})).rejects.toThrow(
      new MergeError("Video 2 is not a video ffmpeg can read"),
    );
    await expect(mergeAudioVideo(ffmpeg, first, second, {})).rejects.toThrow(
      new MergeError("The audio input has no sound ffmpeg can read"),
    );
  });

  it("stops ffmpeg when the run is cancelled", async () => {
    const controller = new AbortController();
    const running = mergeVideos(ffmpeg, [first, second], {}, { signal: controller.signal });
    controller.abort();
    const error = await running.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FfmpegError);
    expect((error as FfmpegError).reason).toBe("was cancelled");
  });
});

describe("ffmpeg plumbing", () => {
  it("reads ffmpeg's description of an input", () => {
    const described = `Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'clip.mp4':
  Duration: 00:01:02.50, start: 0.000000, bitrate: 2000 kb/s
    Stream #0:0(und): Video: h264 (High) (avc1 / 0x31637661), yuv420p(tv, bt709), 1920x1080 [SAR 1:1 DAR 16:9], 1800 kb/s, 29.97 fps, 29.97 tbr, 30k tbn (default)
    Stream #0:1(und): Audio: aac (LC) (mp4a / 0x6134706D), 48000 Hz, stereo, fltp, 128 kb/s (default)`;
    expect(parseProbe(described)).toEqual({
      duration: 62.5,
      video: { codec: "h264", width: 1920, height: 1080, fps: 29.97 },
      audio: { codec: "aac" },
    });
    expect(parseProbe("Duration: N/A")).toEqual({ duration: null, video: null, audio: null });
  });

  it("finds the binary: FFMPEG_PATH, off, or ffmpeg on PATH", () => {
    expect(locateFfmpeg(FFMPEG_OFF)).toBeNull();
    expect(locateFfmpeg("/opt/ffmpeg/bin/ffmpeg")).toBe("/opt/ffmpeg/bin/ffmpeg");
    expect(locateFfmpeg(null)).toMatch(/\/ffmpeg$/);
  });

  it("reports a binary that cannot start as such", async () => {
    const error = await runFfmpeg("/nonexistent/ffmpeg", ["-version"]).catch((e: unknown) => e);
    expect((error as FfmpegError).reason).toBe("could not be started");
  });

  it("sends fal's ffmpeg-api its own field names when fal does the merge", () => {
    const run = (nodeType: string, inputs: Record<string, string>, params = {}) =>
      buildFalInput({ nodeType, endpoint: "", inputs, params });
    expect(run("merge-videos", { video1: "https://x/1.mp4", video2: "https://x/2.mp4" })).toEqual({
      video_urls: ["https://x/1.mp4", "https://x/2.mp4"],
    });
    expect(run("merge-videos", { video1: "a", video2: "b" }, { targetFps: 24 })).toEqual({
      video_urls: ["a", "b"],
      target_fps: 24,
    });
    expect(run("merge-audio-video", { video: "v", media: "a" }, { startOffset: 1.5 })).toEqual({
      video_url: "v",
      audio_url: "a",
      start_offset: 1.5,
    });
  });
});
