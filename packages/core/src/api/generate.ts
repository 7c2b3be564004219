import { z } from "zod";
import { zId } from "./common.ts";
import { zQueueStatus } from "./queue.ts";

/** POST /api/generate/:model — start a run of one node. */
export const zGenerateRequest = z.object({
  nodeId: zId,
  workflowId: z.string().nullable().optional(),
  /** Inputs resolved from the graph, keyed by input id (a list for multiple inputs). */
  inputs: z.record(z.string(), z.unknown()).default({}),
  params: z.record(z.string(), z.unknown()).default({}),
});
export const zGenerateResponse = z.object({
  requestId: zId,
  endpoint: z.string(),
  status: zQueueStatus,
});

/** POST /api/generate/runway-video and runway-aleph with action "check_status". */
export const zRunwayCheckStatusRequest = z.object({
  action: z.literal("check_status"),
  task_id: zId,
});
export const zRunwayCheckStatusResponse = z.object({
  status: z.string(),
  output: z.array(z.string()).optional(),
  progress: z.number().optional(),
  error: z.string().nullable().optional(),
});

/** POST /api/generate/wan-animate-replace and wan-animate-move with action "check_status". */
export const zWanAnimateCheckStatusRequest = z.object({
  action: z.literal("check_status"),
  requestId: zId,
  workflowId: z.string().nullable().optional(),
  nodeId: z.string(),
});

/** POST /api/generate/wan with action "check_status". */
export const zWanCheckStatusRequest = zWanAnimateCheckStatusRequest.extend({
  isImageToVideo: z.boolean().optional(),
  modelVersion: z.string().optional(),
  model: z.string().optional(),
  prompt: z.string().optional(),
  resolution: z.string().optional(),
  aspectRatio: z.string().optional(),
});
export const zWanCheckStatusResponse = z.object({
  done: z.boolean(),
  videoUrl: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
});

/** GET /api/callbacks/luma?requestId= */
export const zLumaCallbackQuery = z.object({ requestId: zId });

/** GET /api/utilities/luma-reframe?requestId&workflowId&nodeId */
export const zLumaReframeQuery = z.object({
  requestId: zId,
  workflowId: z.string().optional(),
  nodeId: z.string(),
});
export const zLumaReframeResponse = z.object({
  status: z.string(),
  mediaUrl: z.string().nullable().optional(),
});

/** GET result fetches: ?requestId&endpoint&workflowId&nodeId → { videoUrl }. */
export const zResultFetchQuery = z.object({
  requestId: zId,
  endpoint: z.string().optional(),
  workflowId: z.string().optional(),
  nodeId: z.string(),
});
export const zVideoResultResponse = z.object({ videoUrl: z.string() });

/** GET /api/generate/google-flash → { images, metadata } */
export const zImageResultResponse = z.object({
  images: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

export const VIDEO_RESULT_PATHS = {
  kling: "/api/generate/kling",
  hailuo: "/api/generate/hailuo",
  seedance: "/api/generate/seedance",
  "sora-video": "/api/generate/sora-video",
  "veo31-text-to-video": "/api/generate/veo31-text-to-video",
  "veo31-image-to-video": "/api/generate/veo31-image-to-video",
  "veo31-first-last-frame": "/api/generate/veo31-first-last-frame",
  "veo31-reference-images": "/api/generate/veo31-reference-images",
  "video-upscale": "/api/utilities/video-upscale",
  "luma-modify": "/api/generate/luma-modify",
  "luma-ray": "/api/generate/luma-ray",
} as const;

const UPSCALE_MODELS = ["topaz", "bria", "realesrgan", "seedvr"];

/** The result-fetch path for a video model (SPEC §7); kling is the default. */
export function videoResultPath(model: string): string {
  const key = model.toLowerCase();
  if (UPSCALE_MODELS.some((name) => key.includes(name))) return VIDEO_RESULT_PATHS["video-upscale"];
  if (key in VIDEO_RESULT_PATHS) return VIDEO_RESULT_PATHS[key as keyof typeof VIDEO_RESULT_PATHS];
  return VIDEO_RESULT_PATHS.kling;
}
