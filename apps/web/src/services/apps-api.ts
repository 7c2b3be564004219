import {
  APP_MESSAGES,
  type AppRun,
  type AppSettings,
  type AppView,
  type PublishAppRequest,
  SHARE_TOKEN_HEADER,
  type TotalEstimate,
} from "@atelier/core";
import { ApiError, call } from "./api.ts";

/**
 * Published apps (issue 22): the app page's form, runs and history, its file uploads, and
 * the owner's publishing. Apart from `api` so the editor's first load does not carry them.
 */

const appPath = (slug: string) => `/api/apps/${encodeURIComponent(slug)}`;
const settingsPath = (workflowId: string) => `/api/workflows/${encodeURIComponent(workflowId)}/app`;

/** A run link's page sends its token with every app request. */
const linkHeaders = (shareToken?: string): Record<string, string> | undefined =>
  shareToken ? { [SHARE_TOKEN_HEADER]: shareToken } : undefined;

/** The server's `{ error }` of a failed XHR, else the fallback. */
function xhrError(request: XMLHttpRequest, fallback: string): ApiError {
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(request.responseText || "{}") as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy's page): the fallback says it.
  }
  return new ApiError(request.status, String(body.error ?? fallback), body);
}

export const appsApi = {
  getApp: (slug: string, shareToken?: string) =>
    call<{ app: AppView }>("GET", appPath(slug), undefined, undefined, linkHeaders(shareToken)),
  startRun: (slug: string, values: Record<string, unknown>, shareToken?: string) =>
    call<{ run: AppRun }>(
      "POST",
      `${appPath(slug)}/runs`,
      { values },
      undefined,
      linkHeaders(shareToken),
    ),
  estimate: (slug: string, values: Record<string, unknown>, shareToken?: string) =>
    call<{ estimate: TotalEstimate }>(
      "POST",
      `${appPath(slug)}/estimate`,
      { values },
      undefined,
      linkHeaders(shareToken),
    ),
  listRuns: (slug: string, shareToken?: string) =>
    call<{ runs: AppRun[] }>(
      "GET",
      `${appPath(slug)}/runs`,
      undefined,
      undefined,
      linkHeaders(shareToken),
    ),
  getRun: (slug: string, runId: string, shareToken?: string) =>
    call<{ run: AppRun }>(
      "GET",
      `${appPath(slug)}/runs/${encodeURIComponent(runId)}`,
      undefined,
      undefined,
      linkHeaders(shareToken),
    ),

  /**
   * Uploads a form's file into the temporary workflow (POST /api/media) with byte progress
   * (fetch reports none); answers its storage URL.
   */
  uploadFile(
    file: Blob,
    fileName: string,
    onProgress: (fraction: number) => void,
    signal?: AbortSignal,
  ): Promise<string> {
    return new Promise((resolve, reject) => {
      const request = new XMLHttpRequest();
      const form = new FormData();
      form.append("workflowId", "temporary");
      form.append("file", file, fileName);
      request.open("POST", "/api/media");
      request.withCredentials = true;
      request.responseType = "text";
      request.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
      };
      request.onload = () => {
        if (request.status < 200 || request.status >= 300)
          return reject(xhrError(request, "Failed to upload media"));
        try {
          const { url } = JSON.parse(request.responseText) as { url?: unknown };
          if (typeof url === "string") return resolve(url);
        } catch {
          // Falls through to the refusal below.
        }
        reject(new ApiError(request.status, "Failed to upload media to storage"));
      };
      request.onerror = () => reject(new ApiError(0, "Network error"));
      request.onabort = () => reject(new ApiError(0, "Upload cancelled"));
      signal?.addEventListener("abort", () => request.abort(), { once: true });
      request.send(form);
    });
  },

  /** The owner's publishing settings; null when the workflow has no app. */
  getSettings: (workflowId: string) =>
    call<{ app: AppSettings }>("GET", settingsPath(workflowId)).then(
      (answer) => answer.app,
      (error) => {
        if (error instanceof ApiError && error.message === APP_MESSAGES.notPublished) return null;
        throw error;
      },
    ),
  publish: (workflowId: string, body: PublishAppRequest) =>
    call<{ app: AppSettings }>("PUT", settingsPath(workflowId), body),
  unpublish: (workflowId: string) => call("DELETE", settingsPath(workflowId)),
};

export type AppsApi = typeof appsApi;
