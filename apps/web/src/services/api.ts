import type {
  MediaUploadResponse,
  QueueStatus,
  QueueStatusResponse,
  SavedWorkflow,
  WorkflowRow,
} from "@atelier/core";
import { nextTask } from "./next-task.ts";
import { shareHeaders } from "./share-session.ts";

/** An answer other than 2xx: the server's `{ error }` text, and for 409 the current version. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Decoded per task at most: a body that arrived whole is not decoded in one long task. */
const DECODE_BYTES_PER_TASK = 1 << 20;

/**
 * The body as text, decoded piece by piece in tasks of their own: `response.text()`
 * decoded a 10 MB workflow in one ~60 ms task of the page's thread.
 */
async function bodyText(response: Response): Promise<string> {
  if (!response.body) return response.text();
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let decoded = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // A body that came whole is one large chunk: it is decoded a slice per task too.
      for (let at = 0; at < value.byteLength; at += DECODE_BYTES_PER_TASK) {
        const slice = value.subarray(at, at + DECODE_BYTES_PER_TASK);
        if (decoded + slice.byteLength > DECODE_BYTES_PER_TASK) {
          await nextTask();
          decoded = 0;
        }
        decoded += slice.byteLength;
        parts.push(decoder.decode(slice, { stream: true }));
      }
    }
  } catch (error) {
    if ((error as Error).name === "TimeoutError") throw new ApiError(0, "Request timed out");
    throw new ApiError(0, "Network error");
  }
  parts.push(decoder.decode());
  return parts.join("");
}

/** A request's answer as text; anything but 2xx throws with the server's `{ error }`. */
async function callText(
  method: string,
  path: string,
  body?: unknown,
  timeoutMs?: number,
  headers: Record<string, string> = {},
): Promise<string> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: "include",
      headers: {
        ...shareHeaders(),
        ...headers,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(timeoutMs ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
    });
  } catch (error) {
    if ((error as Error).name === "TimeoutError") throw new ApiError(0, "Request timed out");
    throw new ApiError(0, "Network error");
  }
  const text = await bodyText(response);
  if (!response.ok) {
    const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    throw new ApiError(
      response.status,
      String(parsed.error ?? parsed.message ?? response.statusText),
      parsed,
    );
  }
  return text;
}

export async function call<T>(
  method: string,
  path: string,
  body?: unknown,
  timeoutMs?: number,
  /** Extra request headers (a share link's token). */
  headers?: Record<string, string>,
): Promise<T> {
  const text = await callText(method, path, body, timeoutMs, headers);
  return (text ? JSON.parse(text) : {}) as T;
}

/** A generation job as the queue calls and the job stream present it (SPEC §7). */
export interface JobStatus extends QueueStatusResponse {
  requestId: string;
  nodeId: string;
  workflowId: string | null;
  /** The node type the job runs. */
  model: string;
  endpoint: string;
}

/** POST /api/generate/:type: inputs by port id, the node's parameters, a retry-safe key. */
export interface GenerateBody {
  nodeId: string;
  workflowId?: string | null;
  inputs: Record<string, string | string[]>;
  params: Record<string, unknown>;
  idempotencyKey?: string;
}

export interface GenerateAnswer {
  requestId: string;
  endpoint: string;
  status: QueueStatus;
}

export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

/** Typed calls to Atelier's server (DESIGN §5). Components reach these through actions. */
export const api = {
  /** The signed-in account; an anonymous session (runs only) counts as signed out. */
  async session(): Promise<SessionUser | null> {
    const answer = await call<{ user?: SessionUser & { isAnonymous?: boolean } } | null>(
      "GET",
      "/api/auth/get-session",
    ).catch(() => null);
    return answer?.user && !answer.user.isAnonymous ? answer.user : null;
  },
  /**
   * Makes sure the browser has a session to run generations with: signed out, an anonymous
   * one is created once (signing up later keeps its jobs and files).
   */
  async ensureSession(): Promise<void> {
    const answer = await call<{ user?: unknown } | null>("GET", "/api/auth/get-session").catch(
      () => null,
    );
    if (answer?.user) return;
    await call("POST", "/api/auth/sign-in/anonymous", {});
  },
  adminStatus: () => call<{ isAdmin: boolean }>("GET", "/api/auth/admin-status"),
  signUp: (email: string, password: string, name: string) =>
    call<{ user: SessionUser }>("POST", "/api/auth/sign-up/email", { email, password, name }),
  signIn: (email: string, password: string) =>
    call<{ user: SessionUser }>("POST", "/api/auth/sign-in/email", { email, password }),
  signOut: () => call("POST", "/api/auth/sign-out", {}),
  /** The sign-in providers offered here, and whether a forgotten password can be mailed a reset. */
  providers: () =>
    call<{ providers: { id: string; name: string }[]; passwordReset?: boolean }>(
      "GET",
      "/api/auth/providers",
    ),
  /** Starts an OAuth/OIDC sign-in; the provider returns the browser to {origin}/auth/callback. */
  signInWith: (provider: string) =>
    call<{ url: string }>("POST", "/api/auth/sign-in/social", {
      provider,
      callbackURL: `${window.location.origin}/auth/callback`,
    }),
  getWorkflow: (id: string) =>
    call<{ workflow: WorkflowRow }>("GET", `/api/workflows/${encodeURIComponent(id)}`),
  /** The same answer unparsed: opening parses and checks it in short steps (read-answer.ts). */
  getWorkflowText: (id: string) => callText("GET", `/api/workflows/${encodeURIComponent(id)}`),
  createWorkflow: (name: string, data: SavedWorkflow) =>
    call<{ workflow: WorkflowRow }>("POST", "/api/workflows", { name, data }),
  saveWorkflow: (id: string, name: string, data: SavedWorkflow, basedOn: string) =>
    call<{ workflow: WorkflowRow }>("PUT", `/api/workflows/${encodeURIComponent(id)}`, {
      name,
      data,
      basedOn,
    }),
  /** Batch saving (SPEC §9): stage node batch `index` of save `saveId`. */
  stageBatch: (id: string, saveId: string, index: number, nodes: unknown[]) =>
    call("PUT", `/api/workflows/${encodeURIComponent(id)}/saves/${saveId}/batches/${index}`, {
      nodes,
    }),
  commitSave: (
    id: string,
    saveId: string,
    body: { name: string; basedOn: string; batches: number; data: SavedWorkflow },
  ) =>
    call<{ workflow: WorkflowRow }>(
      "POST",
      `/api/workflows/${encodeURIComponent(id)}/saves/${saveId}/commit`,
      body,
    ),
  dropSave: (id: string, saveId: string) =>
    call("DELETE", `/api/workflows/${encodeURIComponent(id)}/saves/${saveId}`),
  /** Uploads one file into the workflow's media (multipart); answers its storage URL. */
  async uploadMedia(
    file: Blob,
    fileName: string,
    fields: { workflowId: string; nodeId?: string; outputKey?: string },
  ): Promise<MediaUploadResponse> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) if (value) form.append(name, value);
    form.append("file", file, fileName);
    let response: Response;
    try {
      response = await fetch("/api/media", {
        method: "POST",
        credentials: "include",
        headers: shareHeaders(),
        body: form,
      });
    } catch {
      throw new ApiError(0, "Network error");
    }
    const parsed = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok)
      throw new ApiError(response.status, String(parsed.error ?? "Failed to upload media"), parsed);
    if (typeof parsed.url !== "string")
      throw new ApiError(response.status, "Failed to upload media to storage");
    return parsed as MediaUploadResponse;
  },
  /** Starts a run of one node (202; 200 with the same requestId for a repeated idempotencyKey). */
  generate: (type: string, body: GenerateBody) =>
    call<GenerateAnswer>("POST", `/api/generate/${encodeURIComponent(type)}`, body),
  queueStatus: (requestId: string) => call<JobStatus>("POST", "/api/queue/status", { requestId }),
  cancelJob: (requestId: string) => call<JobStatus>("POST", "/api/queue/cancel", { requestId }),
  /** The user's jobs, newest first (100), optionally of one workflow. */
  listJobs: (workflowId?: string | null) =>
    call<{ jobs: JobStatus[] }>(
      "GET",
      `/api/queue/jobs${workflowId ? `?workflowId=${encodeURIComponent(workflowId)}` : ""}`,
    ),
};
