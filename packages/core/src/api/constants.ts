/**
 * The API's constants and messages as plain values, apart from the zod DTOs, so the
 * editor can use them without loading zod (DESIGN §7).
 */

export const QUEUE_STATUSES = [
  "IN_QUEUE",
  "IN_PROGRESS",
  "COMPLETED",
  "FAILED",
  "CANCELLED",
] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

export const TERMINAL_QUEUE_STATUSES: readonly QueueStatus[] = ["COMPLETED", "FAILED", "CANCELLED"];

export const RUN_MESSAGES = {
  timedOut: "Generation timed out after 15 minutes. Please try again.",
  failed: "Generation failed",
  statusFailed: "Failed to get status",
} as const;

export const WORKFLOW_ERRORS = {
  notFound: "Workflow not found",
  notAuthenticated: "Not authenticated",
  mustBeAuthenticatedToSave: "User must be authenticated to save workflows",
  chunkPermission:
    "Authentication error: User does not have permission to save chunks for this workflow. Please ensure you are logged in and own this workflow.",
  fork: "Failed to fork workflow",
  saveMetadata: "Failed to save workflow metadata",
  finalize: "Failed to finalize workflow save",
  retries: "Failed to save after multiple retries",
  tooLargeTimeout: "Workflow too large to save. Try removing some nodes or clearing output data.",
  update: (message: string) => `Failed to update workflow: ${message}`,
  get: (message: string) => `Failed to get workflow: ${message}`,
  delete: (messages: string) => `Failed to delete workflow: ${messages}`,
  notInAnyStorage: (id: string) => `Workflow ${id} not found in any storage`,
} as const;

/**
 * A delta save (PATCH /api/workflows/:id) carries changed nodes only; past these it is no
 * longer small and the editor sends a full save instead.
 */
export const DELTA_SAVE_LIMITS = {
  nodes: 2000,
  removed: 10_000,
  edges: 50_000,
  /** Request body size; a delta over half the document goes as a full save anyway. */
  bodyBytes: 6 * 1024 * 1024,
} as const;

export const MEDIA_ERRORS = {
  uploadFailed: "Failed to upload media",
  storageUploadFailed: "Failed to upload media to storage",
} as const;

/** The workflow id of a browser's unsaved workflow: uploads and results for it go here. */
export const TEMPORARY_WORKFLOW_ID = "temporary";

/** Personal API tokens (headless use): how many and how long their names may be. */
export const API_TOKEN_LIMITS = {
  nameMaxLength: 100,
  perUser: 50,
} as const;

export const API_TOKEN_ERRORS = {
  nameRequired: "Token name is required",
  nameTooLong: `Token name must be at most ${API_TOKEN_LIMITS.nameMaxLength} characters`,
  tooMany: `You already have ${API_TOKEN_LIMITS.perUser} API tokens, the most allowed. Revoke one you no longer use, then create another.`,
  notFound: "Token not found",
  /** A leaked token must not be able to mint more tokens or revoke the owner's. */
  bearerCannotManage:
    "API tokens cannot be managed with an API token. Sign in to Atelier in a browser to create or revoke tokens.",
  accountRequired: "Sign in with an account to create API tokens",
} as const;

/** Shown once, beside the new token's text. */
export const API_TOKEN_SHOWN_ONCE = "Copy this token now. You won't see it again.";

/**
 * Share links (issue 22): the owner hands out `/s/{token}` with a role. **view** opens the
 * canvas read-only, **run** opens the workflow's published app form, **edit** lets a signed-in
 * person open and save. A revoked or expired link is "not found" everywhere.
 */
export const SHARE_ROLES = ["view", "run", "edit"] as const;
export type ShareRole = (typeof SHARE_ROLES)[number];

export const SHARE_LIMITS = {
  /** Links one workflow may have at once. */
  perWorkflow: 50,
} as const;

/** The header a page opened from a share link sends with its workflow and app requests. */
export const SHARE_TOKEN_HEADER = "x-share-token";

export const SHARE_MESSAGES = {
  notFound: "Link not found or no longer shared",
  expiryInPast: "The expiry must be in the future",
  tooMany: `A workflow can have at most ${SHARE_LIMITS.perWorkflow} share links`,
  signInToEdit: "Sign in to edit this workflow",
  signInToRun: "Sign in to run this app",
} as const;

/** The page a password reset link opens (the mailed one redirects there too). */
export const RESET_PASSWORD_PATH = "/reset-password";
