/**
 * The video merges done with a local ffmpeg: two clips one after the other, or a video with
 * its sound replaced. Results are WebM (VP8 + Opus): encoders every static ffmpeg build
 * has, and a format every browser plays.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MediaProbe, probe, type RunOptions, runFfmpeg } from "./run.ts";

/** Node types a local ffmpeg does for real (else a provider, or the offline stand-in). */
export const FFMPEG_NODE_TYPES: ReadonlySet<string> = new Set([
  "merge-videos",
  "merge-audio-video",
]);

export interface MergedVideo {
  bytes: Buffer;
  contentType: "video/webm";
  /** The first frame as PNG (the node's captured frame output). */
  capturedFrame: Buffer;
}

/** The input could not be merged; the message is safe to show the user. */
export class MergeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MergeError";
  }
}

// Fast VP8 (realtime, quality-capped bitrate) keeps small machines responsive.
const VP8 = ["-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-crf", "10"];
const VP8_RATE = ["-b:v", "3M", "-threads", "2"];
const OPUS = ["-c:a", "libopus", "-b:a", "128k", "-ar", "48000"];
const STEREO = "aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo";

/** Runs `work` with the inputs written to a private temporary folder, then removes it. */
async function inFolder<T>(
  inputs: Uint8Array[],
  work: (files: string[], dir: string) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "atelier-ffmpeg-"));
  try {
    const files = inputs.map((_, index) => join(dir, `input-${index}`));
    await Promise.all(inputs.map((bytes, index) => writeFile(files[index] as string, bytes)));
    return await work(files, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Probes an input that must hold a video stream. */
async function probeVideo(ffmpeg: string, file: string, label: string, options: RunOptions) {
  const found = await probe(ffmpeg, file, options);
  if (!found.video) throw new MergeError(`${label} is not a video ffmpeg can read`);
  return found as MediaProbe & { video: NonNullable<MediaProbe["video"]> };
}

/** Encodes `args` into dir/out.webm and grabs its first frame. */
async function encode(ffmpeg: string, dir: string, args: string[], options: RunOptions) {
  const out = join(dir, "out.webm");
  const frame = join(dir, "frame.png");
  await runFfmpeg(ffmpeg, ["-y", ...args, "-f", "webm", out], options);
  await runFfmpeg(ffmpeg, ["-y", "-i", out, "-frames:v", "1", "-f", "image2", frame], options);
  const [bytes, capturedFrame] = await Promise.all([readFile(out), readFile(frame)]);
  return { bytes, contentType: "video/webm" as const, capturedFrame };
}

const even = (value: number) => Math.max(2, value - (value % 2));

/**
 * Joins videos in order. Each is scaled into the first one's frame (letterboxed, square
 * pixels) at `targetFps` (0: the lowest of the inputs), so clips of any size, rate or codec
 * concatenate; when any clip has sound, the silent ones get silence of their length.
 */
export async function mergeVideos(
  ffmpeg: string,
  videos: Uint8Array[],
  params: { targetFps?: number },
  options: RunOptions = {},
): Promise<MergedVideo> {
  if (videos.length < 2) throw new MergeError("Merge Videos needs two videos");
  return inFolder(videos, async (files, dir) => {
    const probes = [];
    for (const [index, file] of files.entries())
      probes.push(await probeVideo(ffmpeg, file, `Video ${index + 1}`, options));
    const first = (probes[0] as (typeof probes)[number]).video;
    const width = even(first.width);
    const height = even(first.height);
    const rates = probes.map((found) => found.video.fps ?? 30);
    const wanted = params.targetFps && params.targetFps > 0 ? params.targetFps : Math.min(...rates);
    const fps = Math.min(60, Math.max(1, wanted));
    const withSound = probes.some((found) => found.audio);
    const graph: string[] = [];
    const pads: string[] = [];
    for (const [index, found] of probes.entries()) {
      const frame = `${width}:${height}`;
      graph.push(
        `[${index}:v]scale=${frame}:force_original_aspect_ratio=decrease,` +
          `pad=${frame}:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=${fps},format=yuv420p[v${index}]`,
      );
      pads.push(`[v${index}]`);
      if (!withSound) continue;
      // Each clip's sound lasts exactly as long as the clip, so the next one starts in sync.
      const length = found.duration ?? 0;
      graph.push(
        found.audio
          ? `[${index}:a]${STEREO},apad,atrim=0:${length}[a${index}]`
          : `anullsrc=r=48000:cl=stereo,atrim=0:${length}[a${index}]`,
      );
      pads.push(`[a${index}]`);
    }
    const outputs = withSound ? "[v][a]" : "[v]";
    graph.push(`${pads.join("")}concat=n=${files.length}:v=1:a=${withSound ? 1 : 0}${outputs}`);
    return encode(
      ffmpeg,
      dir,
      [
        ...files.flatMap((file) => ["-i", file]),
        "-filter_complex",
        graph.join(";"),
        "-map",
        "[v]",
        ...(withSound ? ["-map", "[a]", ...OPUS] : []),
        ...VP8,
        ...VP8_RATE,
      ],
      options,
    );
  });
}

/**
 * Replaces a video's sound with `audio`, starting `startOffset` seconds in. The result
 * keeps the video's length: shorter audio ends in silence, longer audio is cut. VP8 and
 * VP9 pictures are copied as they are; other codecs are re-encoded to VP8.
 */
export async function mergeAudioVideo(
  ffmpeg: string,
  video: Uint8Array,
  audio: Uint8Array,
  params: { startOffset?: number },
  options: RunOptions = {},
): Promise<MergedVideo> {
  return inFolder([video, audio], async ([videoFile, audioFile], dir) => {
    const found = await probeVideo(ffmpeg, videoFile as string, "The video", options);
    const sound = await probe(ffmpeg, audioFile as string, options);
    if (!sound.audio) throw new MergeError("The audio input has no sound ffmpeg can read");
    const copy = ["vp8", "vp9"].includes(found.video.codec);
    const delayMs = Math.round(Math.max(0, params.startOffset ?? 0) * 1000);
    const delay = delayMs > 0 ? `,adelay=${delayMs}|${delayMs}` : "";
    return encode(
      ffmpeg,
      dir,
      [
        "-i",
        videoFile as string,
        "-i",
        audioFile as string,
        "-filter_complex",
        `[1:a]${STEREO}${delay},apad[a]`,
        "-map",
        "0:v:0",
        "-map",
        "[a]",
        "-shortest",
        ...(copy ? ["-c:v", "copy"] : [...VP8, ...VP8_RATE]),
        ...OPUS,
      ],
      options,
    );
  });
}
