import {
  SHARE_TOKEN_HEADER,
  zActiveRunsResponse,
  zAdminJobList,
  zAdminJobParams,
  zAdminSpend,
  zAdminStatusResponse,
  zAdminUserListResponse,
  zAdminUserParams,
  zAdminUserQuery,
  zApiTokenListResponse,
  zApiTokenParams,
  zAppParams,
  zAppRunListResponse,
  zAppRunParams,
  zAppRunRequest,
  zAppRunResponse,
  zAppSettingsResponse,
  zAppViewResponse,
  zCancelAllRunsResponse,
  zCommitSaveRequest,
  zCopyWorkflowsResponse,
  zCreateApiTokenRequest,
  zCreateApiTokenResponse,
  zCreateFolderRequest,
  zCreateInviteRequest,
  zCreateShareRequest,
  zCreateWorkflowRequest,
  zDeltaSaveRequest,
  zFolderListResponse,
  zFolderResponse,
  zForkRequest,
  zForkResponse,
  zGenerateRequest,
  zGenerateResponse,
  zHealthResponse,
  zInstanceHealth,
  zInviteListResponse,
  zInviteParams,
  zInviteResponse,
  zLumaCallbackQuery,
  zLumaReframeQuery,
  zLumaReframeResponse,
  zMediaUploadFields,
  zMediaUploadResponse,
  zMoveWorkflowsResponse,
  zNameVersionRequest,
  zPricing,
  zProvidersAnswer,
  zPublishAppRequest,
  zQueueState,
  zQueueStatusRequest,
  zQueueStatusResponse,
  zResetLinkResponse,
  zRestoreVersionResponse,
  zResultFetchQuery,
  zRunListQuery,
  zRunListResponse,
  zRunMoveRequest,
  zRunRequest,
  zRunResponse,
  zRunRetryRequest,
  zSaveBatchRequest,
  zSaveWorkflowRequest,
  zShareListResponse,
  zShareOpenResponse,
  zShareParams,
  zShareResponse,
  zShareTokenParams,
  zSuccessResponse,
  zTotalEstimate,
  zUpdateAccountRequest,
  zUpdateAccountResponse,
  zUpdateFolderRequest,
  zUsage,
  zUsageQuery,
  zUserLimits,
  zVersionListResponse,
  zVersionParams,
  zVersionResponse,
  zVideoResultResponse,
  zWorkflowChangedEvent,
  zWorkflowIdsRequest,
  zWorkflowListQuery,
  zWorkflowListResponse,
  zWorkflowResponse,
  zWorkflowSaveResponse,
} from "@atelier/core";
import { z } from "zod";
import { type ApiRoute, routesOf } from "./route-spec.ts";

/**
 * Every /api route, one row each: GET /api/openapi.json is generated from this table at
 * start-up (document.ts), and a test fails when a registered route has no row. Adding a
 * route = one row here, with core's DTOs for its body, query and answer.
 */
const health = routesOf("Health");
const auth = routesOf("Auth");
const tokens = routesOf("API tokens");
const folders = routesOf("Folders");
const workflows = routesOf("Workflows");
const generate = routesOf("Generation");
const queue = routesOf("Queue");
const runs = routesOf("Runs");
const costs = routesOf("Costs");
const media = routesOf("Media");
const shares = routesOf("Sharing");
const apps = routesOf("Apps");
const admin = routesOf("Admin");
const docs = routesOf("Documentation");
const VIA_LINK = `A share link's page sends its token in \`${SHARE_TOKEN_HEADER}\`; the link's role decides what it may do.`;

const BETTER_AUTH =
  "Better Auth's endpoint, see its documentation (https://www.better-auth.com/docs).";
const zRequestId = z.object({ requestId: z.string().min(1).max(200) });
/** GET /api/health's answer while the process serves. */
const zAlive = z.object({ ok: z.literal(true) });

// biome-ignore format: one row per route, so adding a route is one line
export const API_ROUTES: readonly ApiRoute[] = [
  health("GET /api/health", "The process is alive and serving (liveness: checks nothing else)", "public", { response: zAlive }),
  health("GET /api/ready", "Whether the database, job queue and storage answer (readiness: 503 naming the one down)", "public", { response: zHealthResponse }),

  auth("GET /api/auth/admin-status", "Whether the signed-in user is an admin", "account", { response: zAdminStatusResponse }),
  auth("GET /api/auth/providers", "The sign-in providers configured here", "public"),
  auth("POST /api/auth/sign-in/*", "Sign in (email, anonymous, social)", "public", { docPath: "/api/auth/sign-in/{method}", description: BETTER_AUTH }),
  auth("POST /api/auth/sign-up/*", "Create an account", "public", { docPath: "/api/auth/sign-up/{method}", description: BETTER_AUTH }),
  auth("POST /api/auth/request-password-reset", "Mail a password reset link (SMTP_URL; same answer whether or not the address has an account)", "public", { description: BETTER_AUTH }),
  auth("POST /api/auth/send-verification-email", "Mail the address verification link again (SMTP_URL)", "public", { description: BETTER_AUTH }),
  auth("POST /api/auth/reset-password", "Set a new password with a reset link's token (mailed or issued by an admin)", "public", { description: BETTER_AUTH }),
  auth("GET /api/auth/*", "Better Auth's other reads (get-session, OAuth callbacks)", "public", { docPath: "/api/auth/{endpoint}", description: BETTER_AUTH }),
  auth("POST /api/auth/*", "Better Auth's other actions (sign-out, update-user…)", "public", { docPath: "/api/auth/{endpoint}", description: `${BETTER_AUTH} They take the session cookie only, never an API token.` }),

  tokens("GET /api/tokens", "List your API tokens (never their text)", "browser", { response: zApiTokenListResponse }),
  tokens("POST /api/tokens", "Create an API token: its text is in this answer only", "browser", { body: zCreateApiTokenRequest, status: 201, response: zCreateApiTokenResponse }),
  tokens("DELETE /api/tokens/:id", "Revoke an API token", "browser", { params: zApiTokenParams, response: zSuccessResponse }),

  folders("GET /api/folders", "List folders", "account", { response: zFolderListResponse }),
  folders("POST /api/folders", "Create a folder", "account", { body: zCreateFolderRequest, status: 201, response: zFolderResponse }),
  folders("PATCH /api/folders/:id", "Rename a folder", "account", { body: zUpdateFolderRequest, response: zFolderResponse }),
  folders("DELETE /api/folders/:id", "Delete a folder (its workflows stay, unfiled)", "account", { response: zSuccessResponse }),
  folders("PUT /api/folders/:id/workflows", 'Move workflows into a folder (or "unfiled")', "account", { body: zWorkflowIdsRequest, response: zMoveWorkflowsResponse }),
  folders("POST /api/folders/:id/workflows", 'Copy workflows into a folder (or "unfiled")', "account", { body: zWorkflowIdsRequest, status: 201, response: zCopyWorkflowsResponse }),

  workflows("GET /api/workflows", "List workflows", "account", { query: zWorkflowListQuery, response: zWorkflowListResponse }),
  workflows("POST /api/workflows", "Create a workflow", "account", { body: zCreateWorkflowRequest, status: 201, response: zWorkflowResponse }),
  workflows("GET /api/workflows/:id", "Open a workflow", "account", { response: zWorkflowResponse }),
  workflows("PUT /api/workflows/:id", "Save a workflow whole (409 when it changed since basedOn)", "account", { body: zSaveWorkflowRequest, response: zWorkflowSaveResponse }),
  workflows("PATCH /api/workflows/:id", "Save the nodes that changed (delta save)", "account", { body: zDeltaSaveRequest, response: zWorkflowSaveResponse }),
  workflows("DELETE /api/workflows/:id", "Delete a workflow and its media", "account", { response: zSuccessResponse }),
  workflows("PUT /api/workflows/:id/saves/:saveId/batches/:index", "Stage one node batch of a large save", "account", { body: zSaveBatchRequest }),
  workflows("POST /api/workflows/:id/saves/:saveId/commit", "Commit a staged save", "account", { body: zCommitSaveRequest, response: zWorkflowSaveResponse }),
  workflows("DELETE /api/workflows/:id/saves/:saveId", "Drop a staged save", "account", { response: zSuccessResponse }),
  workflows("POST /api/workflows/fork", "Fork a workflow", "account", { body: zForkRequest, status: 201, response: zForkResponse }),
  workflows("GET /api/workflows/:id/versions", "A workflow's saved versions, newest first", "account", { response: zVersionListResponse }),
  workflows("GET /api/workflows/:id/versions/:v", "One saved version's workflow data", "account", { params: zVersionParams, response: zVersionResponse }),
  workflows("PATCH /api/workflows/:id/versions/:v", "Name a version (kept until unnamed) or unname it", "account", { params: zVersionParams, body: zNameVersionRequest, response: zSuccessResponse }),
  workflows("POST /api/workflows/:id/versions/:v/restore", "Restore a version as the newest one", "account", { params: zVersionParams, response: zRestoreVersionResponse }),
  workflows("GET /api/workflows/:id/events", "Follow a workflow's changes (server-sent events)", "account", { stream: zWorkflowChangedEvent }),

  generate("POST /api/generate/:model", "Start a run of one node (or check a run's status)", "session", { body: zGenerateRequest, status: 202, response: zGenerateResponse }),
  generate("GET /api/generate/:model", "A finished run's result", "session", { query: zResultFetchQuery }),
  generate("GET /api/utilities/video-upscale", "A video upscale's result", "session", { query: zResultFetchQuery, response: zVideoResultResponse }),
  generate("GET /api/utilities/luma-reframe", "A Luma reframe's status and result", "session", { query: zLumaReframeQuery, response: zLumaReframeResponse }),
  generate("GET /api/callbacks/luma", "A Luma generation's status", "session", { query: zLumaCallbackQuery }),
  generate("POST /api/callbacks/fal/:token", "fal's webhook (signed by fal)", "provider"),
  generate("POST /api/callbacks/luma/:token", "Luma's callback (addressed by an unguessable token)", "provider"),
  generate("POST /api/callbacks/replicate/:token", "Replicate's webhook (signed with the account's secret)", "provider"),

  queue("POST /api/queue/status", "A job's status (SPEC §7's poll)", "session", { body: zQueueStatusRequest, response: zQueueStatusResponse }),
  queue("POST /api/queue/cancel", "Cancel a job", "session", { body: zRequestId, response: zQueueStatusResponse }),
  queue("GET /api/queue/jobs", "Your unfinished and latest jobs", "session", { query: z.object({ workflowId: z.string().max(200).optional() }) }),
  queue("GET /api/queue/events", "Follow your jobs (server-sent events)", "session", { stream: zQueueStatusResponse }),

  costs("GET /api/pricing", "Where your runs go (providers allowed, work done here), for cost estimates: core's price rules give each node's price", "public", { response: zPricing }),
  costs("GET /api/providers", "The configured providers: health where a free check exists (ComfyUI), and the nodes each can run here", "session", { response: zProvidersAnswer }),
  costs("GET /api/usage", "Your spend over the last `days` (UTC days) by day and model, and your budgets", "session", { query: zUsageQuery, response: zUsage }),

  runs("POST /api/runs", "Run a workflow on the server: all, up to a node, or a list of nodes, with parameter overrides", "session", { body: zRunRequest, status: 202, response: zRunResponse }),
  runs("GET /api/runs", "Your queue: active runs in order, and whether it is paused", "session", { response: zActiveRunsResponse }),
  runs("GET /api/runs/:id", "A run: each node's status, progress, timings, outputs and errors", "session", { response: zRunResponse }),
  runs("POST /api/runs/:id/cancel", "Cancel a run (running nodes' jobs too)", "session", { response: zRunResponse }),
  runs("POST /api/runs/:id/retry", "Run a failed or cancelled run's failed and not-run nodes again", "session", { body: zRunRetryRequest, status: 202, response: zRunResponse }),
  runs("POST /api/runs/:id/move", "Move a run one place up or down your queue", "session", { body: zRunMoveRequest, response: zActiveRunsResponse }),
  runs("POST /api/runs/cancel-all", "Cancel every active run of yours", "session", { response: zCancelAllRunsResponse }),
  runs("PUT /api/queue/state", "Pause or resume your queue (running nodes finish)", "session", { body: zQueueState, response: zQueueState }),
  runs("GET /api/workflows/:id/runs", "A workflow's runs, newest first (paginated by nextCursor)", "session", { query: zRunListQuery, response: zRunListResponse }),

  shares("POST /api/workflows/:id/shares", "Create a share link (view, run or edit; optional expiry)", "account", { body: zCreateShareRequest, status: 201, response: zShareResponse }),
  shares("GET /api/workflows/:id/shares", "A workflow's share links, newest first", "account", { response: zShareListResponse }),
  shares("DELETE /api/workflows/:id/shares/:shareId", "Revoke a share link (it is 404 everywhere at once)", "account", { params: zShareParams, response: zSuccessResponse }),
  shares("GET /api/shares/:token", "What a share link opens: its role and workflow", "public", { params: zShareTokenParams, response: zShareOpenResponse }),
  shares("PUT /api/workflows/:id/app", "Publish the workflow's saved version as an app (or republish)", "account", { body: zPublishAppRequest, response: zAppSettingsResponse }),
  shares("GET /api/workflows/:id/app", "The workflow's published app settings", "account", { response: zAppSettingsResponse }),
  shares("DELETE /api/workflows/:id/app", "Unpublish the workflow's app", "account", { response: zSuccessResponse }),

  apps("GET /api/apps/:slug", "A published app's form", "optional", { params: zAppParams, response: zAppViewResponse, description: VIA_LINK }),
  apps("POST /api/apps/:slug/runs", "Run the app's published version with the form's values", "account", { params: zAppParams, body: zAppRunRequest, status: 202, response: zAppRunResponse, description: VIA_LINK }),
  apps("POST /api/apps/:slug/estimate", "What a run with the form's values is expected to cost you (nothing starts)", "account", { params: zAppParams, body: zAppRunRequest, response: z.object({ estimate: zTotalEstimate }), description: `${VIA_LINK} At the providers' published prices; \`unknown\` counts the steps without one.` }),
  apps("GET /api/apps/:slug/runs", "The app's runs: all for its owner, your own otherwise", "account", { params: zAppParams, response: zAppRunListResponse, description: VIA_LINK }),
  apps("GET /api/apps/:slug/runs/:runId", "One run of the app: status, progress and shown outputs", "account", { params: zAppRunParams, response: zAppRunResponse, description: VIA_LINK }),

  admin("POST /api/admin/invites", "Invite someone to sign up (SIGNUP=invite): one use, expires", "account", { body: zCreateInviteRequest, status: 201, response: zInviteResponse, description: "Admins only (403 otherwise). The invited sign-up sends the token in `x-invite-token`." }),
  admin("GET /api/admin/invites", "Invitations, newest first", "account", { response: zInviteListResponse, description: "Admins only (403 otherwise)." }),
  admin("DELETE /api/admin/invites/:id", "Withdraw an invitation", "account", { params: zInviteParams, response: zSuccessResponse, description: "Admins only (403 otherwise)." }),
  admin("GET /api/admin/users", "Accounts (no anonymous sessions), newest first, 100 at most; `q` finds addresses", "account", { query: zAdminUserQuery, response: zAdminUserListResponse, description: "Admins only (403 otherwise)." }),
  admin("PATCH /api/admin/users/:id", "Disable an account (no sign-in; its sessions end, its API tokens are refused) or enable it", "account", { params: zAdminUserParams, body: zUpdateAccountRequest, response: zUpdateAccountResponse, description: "Admins only (403 otherwise); an admin cannot disable their own account (400)." }),
  admin("GET /api/admin/users/:id/limits", "One account's own quotas and budgets (null: the instance's default)", "account", { params: zAdminUserParams, response: z.object({ limits: zUserLimits }), description: "Admins only (403 otherwise)." }),
  admin("PUT /api/admin/users/:id/limits", "Set one account's own quotas and budgets (all null: back to the defaults)", "account", { params: zAdminUserParams, body: zUserLimits, response: z.object({ limits: zUserLimits }), description: "Admins only (403 otherwise)." }),
  admin("GET /api/admin/health", "How the instance is doing: queue depth and age, workers alive, storage used, provider errors in the last hour", "account", { response: zInstanceHealth, description: "Admins only (403 otherwise)." }),
  admin("GET /api/admin/jobs", "Jobs across users: every unfinished one, then the latest (100 in all)", "account", { response: zAdminJobList, description: "Admins only (403 otherwise)." }),
  admin("POST /api/admin/jobs/:id/cancel", "Cancel anyone's job (at its provider too, best effort)", "account", { params: zAdminJobParams, response: z.object({ job: z.object({ id: z.string(), status: z.string() }) }), description: "Admins only (403 otherwise); an unknown id is 404." }),
  admin("GET /api/admin/spend", "What the instance spent over the last `days` (UTC days): completed jobs by provider and by user", "account", { query: zUsageQuery, response: zAdminSpend, description: "Admins only (403 otherwise). Jobs with no published price count as unpriced, not as money." }),
  admin("POST /api/admin/users/:id/reset-link", "A one-time link (an hour) that sets the account's password", "account", { params: zAdminUserParams, status: 201, response: zResetLinkResponse, description: "Admins only (403 otherwise). Hand it over yourself: it is not mailed." }),

  media("POST /api/media", "Upload a file (signed out: to the temporary workflow only)", "optional", { multipart: zMediaUploadFields, status: 201, response: zMediaUploadResponse }),
  media("GET /api/media", "A workflow's media", "account", { query: z.object({ workflowId: z.string().min(1) }) }),
  media("DELETE /api/media/:id", "Delete an uploaded file", "account", { response: zSuccessResponse }),
  media("GET /api/media/file/*", "A stored file, by its unguessable path (with `.atelier.json` appended: a generated file's provenance sidecar)", "public", { docPath: "/api/media/file/{path}", produces: "application/octet-stream" }),

  docs("GET /api/openapi.json", "This document", "public"),
  docs("GET /api/docs", "The API reference page", "public", { produces: "text/html" }),
  docs("GET /api/docs/:file", "The reference page's scripts and styles", "public", { produces: "text/javascript" }),
];
