/**
 * Running ffmpeg: no shell (an argument array), a time limit, killed on abort, and what it
 * prints about its inputs read back as a small probe (static builds ship no ffprobe).
 */
import { execFile } from "node:child_process";

/** The longest one ffmpeg command may run; jobs give up after 15 minutes anyway. */
export const FFMPEG_TIMEOUT_MS = 5 * 60_000;

export interface RunOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number;
}

export type FfmpegFailure = "failed" | "timed out" | "was cancelled" | "could not be started";

/** ffmpeg did not finish well; `detail` is its last lines of output. */
export class FfmpegError extends Error {
  constructor(
    readonly reason: FfmpegFailure,
    readonly detail: string,
  ) {
    super(`ffmpeg ${reason}${detail ? `: ${detail}` : ""}`);
    this.name = "FfmpegError";
  }
}

/** Spawn errors of a binary gone since start-up, or no longer executable. */
const NOT_STARTED = new Set(["ENOENT", "EACCES"]);

interface Outcome {
  stderr: string;
  /** Why it did not finish well, or null. */
  failure: FfmpegFailure | null;
}

/** Runs ffmpeg with `args` and reports how it ended, never rejecting. */
function exec(binary: string, args: string[], options: RunOptions): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      binary,
      ["-hide_banner", "-nostdin", ...args],
      {
        timeout: options.timeoutMs ?? FFMPEG_TIMEOUT_MS,
        killSignal: "SIGKILL",
        maxBuffer: 16 * 1024 * 1024,
        windowsHide: true,
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (error, _stdout, stderr) => {
        const failure: FfmpegFailure | null = !error
          ? null
          : options.signal?.aborted
            ? "was cancelled"
            : (error as { killed?: boolean }).killed
              ? "timed out"
              : NOT_STARTED.has(String((error as { code?: unknown }).code))
                ? "could not be started"
                : "failed";
        resolve({ stderr: String(stderr ?? ""), failure });
      },
    );
  });
}

/** Runs ffmpeg with `args`; resolves with its stderr (where it reports), rejects on failure. */
export async function runFfmpeg(binary: string, args: string[], options: RunOptions = {}) {
  const { stderr, failure } = await exec(binary, args, options);
  if (failure) throw new FfmpegError(failure, stderr.trim().split("\n").slice(-5).join("\n"));
  return stderr;
}

export interface MediaProbe {
  /** Seconds, or null when the container does not say. */
  duration: number | null;
  video: { codec: string; width: number; height: number; fps: number | null } | null;
  audio: { codec: string } | null;
}

const clock = (text: string) => {
  const [h, m, s] = text.split(":").map(Number);
  return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
};

/** Reads `ffmpeg -i`'s description of one input (its first video and audio streams). */
export function parseProbe(stderr: string): MediaProbe {
  const duration = /Duration: (\d+:\d+:\d+(?:\.\d+)?)/.exec(stderr)?.[1];
  const videoLine = /Stream #\d+:\d+.*?: Video: (.*)/.exec(stderr)?.[1];
  const audioLine = /Stream #\d+:\d+.*?: Audio: (.*)/.exec(stderr)?.[1];
  let video: MediaProbe["video"] = null;
  if (videoLine) {
    const size = /, (\d{1,5})x(\d{1,5})\b/.exec(videoLine);
    const fps = /, ([\d.]+) (?:fps|tbr)\b/.exec(videoLine);
    if (size)
      video = {
        codec: videoLine.split(/[\s,(]/)[0] ?? "",
        width: Number(size[1]),
        height: Number(size[2]),
        fps: fps ? Number(fps[1]) : null,
      };
  }
  return {
    duration: duration ? clock(duration) : null,
    video,
    audio: audioLine ? { codec: audioLine.split(/[\s,(]/)[0] ?? "" } : null,
  };
}

/** Describes a media file; a file without a stated duration is decoded to measure it. */
export async function probe(binary: string, file: string, options: RunOptions = {}) {
  // With no output ffmpeg describes the input, then exits with an error: expected here.
  const { stderr, failure } = await exec(binary, ["-i", file], options);
  if (failure && failure !== "failed") throw new FfmpegError(failure, "");
  const found = parseProbe(stderr);
  if (found.duration === null && (found.video || found.audio)) {
    const decoded = await runFfmpeg(binary, ["-i", file, "-f", "null", "-"], options);
    const last = [...decoded.matchAll(/time=(\d+:\d+:\d+(?:\.\d+)?)/g)].at(-1)?.[1];
    if (last) found.duration = clock(last);
  }
  return found;
}
