import { describe, expect, it } from "vitest";
import {
  LIMITS,
  PREFERENCE_DEFAULTS,
  RUN_MESSAGES,
  videoResultPath,
  zCreateFolderRequest,
  zForkRequest,
  zQueueStatusRequest,
  zQueueStatusResponse,
  zRunwayCheckStatusRequest,
  zWorkflowIdsRequest,
} from "../src/index.ts";

describe("LIMITS (SPEC §9)", () => {
  it("names the constants with SPEC's values", () => {
    expect(LIMITS.media).toMatchObject({
      uploadThresholdBytes: 5120,
      compressionThresholdBytes: 102_400,
      maxInlineBytes: 51_200,
      maxVideoBytes: 104_857_600,
    });
    expect(LIMITS.upload).toMatchObject({
      maxFileBytes: 52_428_800,
      queueConcurrency: 3,
      queueRetries: 3,
      bucket: "workflow-media",
    });
    expect(LIMITS.chunking).toMatchObject({
      chunkAboveBytes: 5_242_880,
      maxChunkBytes: 2_097_152,
      nodesPerChunk: 10,
      nodesPerBatch: 20,
      batchRetries: 3,
      batchBackoffMs: [1000, 2000, 3000],
      maxWorkflowBytes: 10_485_760,
    });
    expect(LIMITS.timing).toMatchObject({
      cloudLoadTimeoutMs: 5000,
      pollIntervalMs: 3000,
      pollMaxMs: 900_000,
      folderListTimeoutMs: 10_000,
      saveProgressClearMs: 1500,
      cancelledQueueEntryRemoveMs: 1000,
      completedQueueEntryRemoveMs: 2000,
      notificationAutoCloseMs: 10_000,
    });
    expect(LIMITS.history).toMatchObject({
      undoEntries: 50,
      dragIdleMs: 1000,
      maxNodesPerEntry: 20,
      maxCharsPerEntry: 1_000_000,
    });
    expect(LIMITS.cache).toMatchObject({
      workflowEntries: 3,
      workflowBytes: 20_971_520,
      workflowTtlMs: 300_000,
    });
    expect(LIMITS.layout).toEqual({
      duplicateOffset: 50,
      groupPadding: 20,
      groupHeader: 80,
      groupColorCount: 16,
    });
    expect(LIMITS.storage).toMatchObject({
      localStorageQuotaBytes: 5_242_880,
      cloudQuotaBytes: 524_288_000,
      workflowListLimit: 100,
    });
    expect(LIMITS.text).toMatchObject({
      historyEntries: 20,
      historySizeChars: 102_400,
      maxOutputChars: 51_200,
    });
    expect(LIMITS.recent).toEqual({ kept: 10, shownByDefault: 3 });
  });

  it("has SPEC's preference defaults", () => {
    expect(PREFERENCE_DEFAULTS).toMatchObject({
      autoUploadMedia: true,
      compressImagesBeforeUpload: true,
      maxImageSize: 10,
      autoSaveEnabled: false,
      autoSaveInterval: 5,
      showNodeLabels: true,
      showMinimap: true,
      snapToGrid: false,
    });
  });
});

describe("API contract (SPEC §7)", () => {
  it("parses the request bodies SPEC names", () => {
    expect(zCreateFolderRequest.parse({ name: "Moodboards" })).toEqual({ name: "Moodboards" });
    expect(zWorkflowIdsRequest.safeParse({ workflowIds: [] }).success).toBe(false);
    expect(zForkRequest.parse({ sourceWorkflowId: "w1", options: { name: "Copy" } })).toEqual({
      sourceWorkflowId: "w1",
      options: { name: "Copy" },
    });
    expect(
      zQueueStatusRequest.parse({
        requestId: "r",
        endpoint: "fal-ai/flux-pro/v1.1",
        workflowId: "w",
        nodeId: "n",
        model: "flux-pro",
      }),
    ).toBeTruthy();
    expect(
      zRunwayCheckStatusRequest.safeParse({ action: "check_status", task_id: "t" }).success,
    ).toBe(true);
    expect(zRunwayCheckStatusRequest.safeParse({ action: "start", task_id: "t" }).success).toBe(
      false,
    );
  });

  it("describes the queue status answer", () => {
    const answer = {
      status: "COMPLETED",
      queue_position: null,
      logs: [{ message: "done" }],
      progress: 100,
      data: { video: { url: "https://x/v.mp4" } },
      outputs: { videoUrl: "https://x/v.mp4" },
      outputValues: { video: { value: "https://x/v.mp4" } },
      error: null,
    };
    expect(zQueueStatusResponse.parse(answer)).toEqual(answer);
    expect(zQueueStatusResponse.safeParse({ ...answer, status: "DONE" }).success).toBe(false);
    expect(RUN_MESSAGES.timedOut).toBe("Generation timed out after 15 minutes. Please try again.");
  });

  it("chooses the result path by model, kling by default", () => {
    expect(videoResultPath("hailuo")).toBe("/api/generate/hailuo");
    expect(videoResultPath("veo31-first-last-frame")).toBe("/api/generate/veo31-first-last-frame");
    expect(videoResultPath("topaz-video")).toBe("/api/utilities/video-upscale");
    expect(videoResultPath("seedvr")).toBe("/api/utilities/video-upscale");
    expect(videoResultPath("luma-ray")).toBe("/api/generate/luma-ray");
    expect(videoResultPath("something-else")).toBe("/api/generate/kling");
  });
});
