/**
 * Every business constant of SPEC §9, named, in one place.
 * Sizes are bytes unless the name says otherwise; times are milliseconds.
 */

const KB = 1024;
const MB = 1024 * 1024;

export const LIMITS = {
  media: {
    uploadThresholdBytes: 5120,
    compressionThresholdBytes: 102_400,
    maxInlineBytes: 51_200,
    maxVideoBytes: 104_857_600,
    /** General image compression: quality and bounding box. */
    imageCompressionQuality: 0.85,
    imageCompressionMaxWidth: 1920,
    imageCompressionMaxHeight: 1080,
    /** Upload compression re-encodes as JPEG at this quality. */
    uploadCompressionQuality: 0.8,
    estimatedImageBytes: 512 * KB,
    estimatedVideoBytes: 5 * MB,
    estimatedModelBytes: 10 * MB,
    urlCacheTtlMs: 60 * 60 * 1000,
  },
  upload: {
    maxFileBytes: 52_428_800,
    queueConcurrency: 3,
    queueRetries: 3,
    bucket: "workflow-media",
    bucketFileLimitBytes: 50 * MB,
    cacheControlSeconds: 3600,
  },
  embedding: {
    maxImageBytes: 2 * MB,
    autoUploadThresholdBytes: 10 * KB,
    batchSize: 3,
  },
  storageUpload: {
    maxImageBytes: 10 * MB,
    thresholdBytes: 10 * KB,
  },
  video: {
    base64ThresholdChars: 512_000,
    heavyWorkflowVideoCount: 5,
    heavyWorkflowBytes: 10 * MB,
    conversionConcurrency: 3,
  },
  extraction: {
    /** Outputs with more base64 than this are cleaned or extracted. */
    cleanOutputsAboveBytes: 1 * MB,
    minChars: 51_200,
    minCharsWithAutoUpload: 10_240,
    concurrency: 2,
    retries: 2,
    backoffMs: [2000, 4000],
    fetchTimeoutMs: 30_000,
  },
  text: {
    historyEntries: 20,
    historySizeChars: 102_400,
    maxOutputChars: 51_200,
    truncationSuffix: "... (truncated)",
    /** Serialization removes embedded data larger than this from outputs. */
    maxEmbeddedOutputChars: 1 * MB,
  },
  storage: {
    localStorageQuotaBytes: 5_242_880,
    indexedDbVersion: 1,
    indexedDbFallbackQuotaBytes: 1024 * MB,
    cloudQuotaBytes: 524_288_000,
    workflowListLimit: 100,
  },
  chunking: {
    chunkAboveBytes: 5 * MB,
    maxChunkBytes: 2 * MB,
    nodesPerChunk: 10,
    batchAboveBytes: 2 * MB,
    nodesPerBatch: 20,
    batchRetries: 3,
    batchBackoffMs: [1000, 2000, 3000],
    maxWorkflowBytes: 10 * MB,
  },
  timing: {
    cloudLoadTimeoutMs: 5000,
    pollIntervalMs: 3000,
    pollMaxMs: 15 * 60 * 1000,
    folderListTimeoutMs: 10_000,
    reconnectSyncDelayMs: 2000,
    saveProgressClearMs: 1500,
    cancelledQueueEntryRemoveMs: 1000,
    completedQueueEntryRemoveMs: 2000,
    authSessionCacheMs: 60_000,
    adminStatusCacheMs: 5 * 60 * 1000,
    notificationAutoCloseMs: 10_000,
    externalImageDownloadTimeoutMs: 30_000,
    workerSerializeTimeoutMs: 30_000,
    workerChunkTimeoutMs: 30_000,
    workerCloneTimeoutMs: 10_000,
  },
  cache: {
    workflowEntries: 3,
    workflowBytes: 20 * MB,
    workflowTtlMs: 5 * 60 * 1000,
    /** A cache is cleared when its memory use exceeds this figure. */
    clearAboveMemoryUse: 50,
  },
  history: {
    undoEntries: 50,
    dragIdleMs: 1000,
    maxNodesPerEntry: 20,
    maxCharsPerEntry: 1_000_000,
  },
  backups: {
    keep: 5,
  },
  layout: {
    duplicateOffset: 50,
    groupPadding: 20,
    groupHeader: 80,
    groupColorCount: 16,
  },
  recent: {
    kept: 10,
    shownByDefault: 3,
  },
  workflow: {
    largeWorkflowElements: 500,
    largeMetadataChars: 1024,
  },
} as const;

/** Preference defaults of SPEC §9 (kept in the browser). */
export const PREFERENCE_DEFAULTS = {
  autoUploadMedia: true,
  compressImagesBeforeUpload: true,
  maxImageSize: 10,
  autoSaveEnabled: false,
  autoSaveInterval: 5,
  showNodeLabels: true,
  showMinimap: true,
  snapToGrid: false,
  notificationsEnabled: true,
  videoCompletionNotifications: true,
  threeDGenerationNotifications: true,
  recentWorkflows: [] as { id: string; name: string; accessedAt: number }[],
};

/** SPEC §9: the notification setting itself stays off until the user enables it. */
export const NOTIFICATION_SETTING_DEFAULT = false;
