/**
 * A merge node run by the local provider with a local ffmpeg: inputs read from our storage,
 * the merged WebM and its first frame returned as the node's `video` and `capturedFrame`.
 */
import { ProviderError, type ProviderResult } from "../../provider.ts";
import type { LocalRequest, ReadMedia } from "../local-request.ts";
import { FFMPEG_MISSING } from "./locate.ts";
import { MergeError, mergeAudioVideo, mergeVideos } from "./merge.ts";
import { FfmpegError } from "./run.ts";

const USER_MESSAGES: Record<FfmpegError["reason"], string> = {
  failed: "ffmpeg could not merge these inputs",
  "timed out": "The merge took too long and was stopped",
  "was cancelled": "The merge was cancelled",
  "could not be started": FFMPEG_MISSING,
};

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

const seconds = (value: unknown) =>
  typeof value === "number" && Number.isFinite(value) ? value : 0;

/** Reads one required input's bytes, naming it when it is missing. */
async function read(request: LocalRequest, port: string, label: string, readMedia: ReadMedia) {
  const url = first(request.inputs[port]);
  if (!url) throw new MergeError(`Missing required input: ${label}`);
  return readMedia(url);
}

export async function runFfmpegNode(
  request: LocalRequest,
  readMedia: ReadMedia,
  ffmpeg: string,
  signal?: AbortSignal,
): Promise<ProviderResult> {
  const options = { signal };
  try {
    const merged =
      request.nodeType === "merge-videos"
        ? await mergeVideos(
            ffmpeg,
            [
              await read(request, "video1", "First video", readMedia),
              await read(request, "video2", "Second video", readMedia),
            ],
            { targetFps: seconds(request.params.targetFps) },
            options,
          )
        : await mergeAudioVideo(
            ffmpeg,
            await read(request, "video", "Video", readMedia),
            await read(request, "media", "Audio", readMedia),
            { startOffset: seconds(request.params.startOffset) },
            options,
          );
    return {
      raw: { local: true, nodeType: request.nodeType, ffmpeg: true },
      media: [
        { output: "video", bytes: merged.bytes, contentType: merged.contentType },
        { output: "capturedFrame", bytes: merged.capturedFrame, contentType: "image/png" },
      ],
    };
  } catch (error) {
    // Bad inputs and ffmpeg failures end the job with a message the user can act on.
    if (error instanceof MergeError)
      throw new ProviderError(error.message, "fatal", { userMessage: error.message });
    if (error instanceof FfmpegError)
      throw new ProviderError(error.message, "fatal", { userMessage: USER_MESSAGES[error.reason] });
    throw error;
  }
}
