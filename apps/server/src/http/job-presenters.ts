import { mediaOutputKeys, PLAIN_MEDIA_OUTPUT_KEY } from "@atelier/core";
import type { JobRow } from "../db/rows.ts";

/** Runway's task states for our job states (SPEC §7's runway check_status answer). */
const RUNWAY_STATUS: Record<string, string> = {
  IN_QUEUE: "PENDING",
  IN_PROGRESS: "RUNNING",
  COMPLETED: "SUCCEEDED",
  FAILED: "FAILED",
  CANCELLED: "CANCELLED",
};

/** The first of the job's outputs named `keys` that is a URL, else null. */
export const mediaUrl = (job: JobRow, ...keys: string[]) => {
  for (const key of keys) {
    const value = job.outputs?.[key];
    if (typeof value === "string") return value;
  }
  return null;
};

/** The job's video, whichever of SPEC §3's video keys holds it (videoUrl first). */
export const videoUrlOf = (job: JobRow) => mediaUrl(job, ...mediaOutputKeys("video"));

/** `POST /api/generate/:model`'s answer to a start: the id and endpoint the client polls. */
export const presentStarted = (job: JobRow) => ({
  requestId: job.id,
  endpoint: job.endpoint,
  status: job.status,
});

/** SPEC §7's `check_status` answer: Runway's shape for runway models, else ours. */
export function presentCheckStatus(model: string, job: JobRow) {
  const videoUrl = videoUrlOf(job);
  if (model.startsWith("runway"))
    return {
      status: RUNWAY_STATUS[job.status],
      output: videoUrl ? [videoUrl] : [],
      progress: job.progress === null ? null : job.progress / 100,
      error: job.error,
    };
  return {
    done: job.status === "COMPLETED" || job.status === "FAILED" || job.status === "CANCELLED",
    status: job.status,
    videoUrl,
    error: job.error,
  };
}

/**
 * A result fetch's answer: 200 with the media once the job completed, 202 with its status
 * (and error) before.
 */
export function presentResult(job: JobRow, body: Record<string, unknown>) {
  if (job.status !== "COMPLETED")
    return { code: 202, body: { status: job.status, error: job.error, ...body } };
  return { code: 200, body: { status: job.status, ...body } };
}

/** `GET /api/generate/:model`'s media: Google Flash answers images, the rest a video. */
export function presentModelResult(model: string, job: JobRow) {
  if (model === "google-flash") {
    const images = Array.isArray(job.outputs?.images)
      ? (job.outputs.images as string[])
      : [mediaUrl(job, PLAIN_MEDIA_OUTPUT_KEY.image)].filter((url): url is string => Boolean(url));
    return presentResult(job, { images, metadata: { model: job.model, endpoint: job.endpoint } });
  }
  return presentResult(job, { videoUrl: videoUrlOf(job) });
}

/** The Luma reframe utility's answer. */
export const presentReframe = (job: JobRow) => ({
  status: job.status,
  mediaUrl: videoUrlOf(job) ?? mediaUrl(job, PLAIN_MEDIA_OUTPUT_KEY.image),
  error: job.error,
});

/** The Luma callback poll's answer. */
export const presentLumaStatus = (job: JobRow) => ({
  status: job.status,
  videoUrl: videoUrlOf(job),
  error: job.error,
});
