import { z } from "zod";
import { zId } from "./common.ts";
import { QUEUE_STATUSES } from "./constants.ts";

export const zQueueStatus = z.enum(QUEUE_STATUSES);

export const zQueueLog = z.object({
  message: z.string(),
  level: z.string().optional(),
  timestamp: z.string().optional(),
});

/** POST /api/queue/status */
export const zQueueStatusRequest = z.object({
  requestId: zId,
  endpoint: z.string(),
  workflowId: z.string().nullable().optional(),
  nodeId: z.string(),
  model: z.string(),
});

export const zQueueStatusResponse = z.object({
  status: zQueueStatus,
  queue_position: z.number().int().min(0).nullable().optional(),
  logs: z.array(zQueueLog).optional(),
  progress: z.number().min(0).max(100).nullable().optional(),
  data: z.object({ video: z.object({ url: z.string() }).optional() }).optional(),
  outputs: z.record(z.string(), z.unknown()).optional(),
  outputValues: z.record(z.string(), z.object({ value: z.unknown() })).optional(),
  error: z.string().nullable().optional(),
});
export type QueueStatusResponse = z.infer<typeof zQueueStatusResponse>;

/** The per-node queue entry the browser keeps (SPEC §3). */
export const zNodeQueueStatus = z.object({
  requestId: zId,
  endpoint: z.string(),
  status: zQueueStatus,
  queuePosition: z.number().int().min(0).nullable(),
  logs: z.array(zQueueLog),
  progress: z.number().min(0).max(100).nullable(),
  startTime: z.number(),
  lastUpdate: z.number(),
});
export type NodeQueueStatus = z.infer<typeof zNodeQueueStatus>;
