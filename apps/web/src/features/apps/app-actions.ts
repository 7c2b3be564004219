import {
  APP_MESSAGES,
  type AppRun,
  type AppSettings,
  type AppView,
  type PublishAppRequest,
  type TotalEstimate,
  validateUpload,
} from "@atelier/core";
import { ApiError } from "../../services/api.ts";
import { appsApi } from "../../services/apps-api.ts";
import { authCache } from "../../services/auth-cache.ts";
import { sessionChanged } from "../workspace/store.ts";
import { type AppRunWatchOptions, watchAppRun } from "./app-run-watch.ts";

export type { AppRun, AppSettings, AppView };

/** The server's `{ error }` text, shown as it is; else the fallback. */
export const appFailureMessage = (error: unknown, fallback: string): string =>
  error instanceof ApiError && error.message ? error.message : fallback;

/** An app the visitor may not open answers 404 (never 403): the page says so plainly. */
export const isAppMissing = (error: unknown) =>
  error instanceof ApiError && (error.status === 404 || error.status === 400);

/** A 401: the visitor is signed out (perhaps in another tab) and must sign in to run. */
export const isSignedOutFailure = (error: unknown) =>
  error instanceof ApiError && error.status === 401;

/** The kind of file a media field takes, from its `accept` (core's upload check names it). */
export function uploadKindOf(accept: string): "image" | "video" | "audio" | "3d" | undefined {
  if (accept.startsWith("image/")) return "image";
  if (accept.startsWith("video/")) return "video";
  if (accept.startsWith("audio/")) return "audio";
  if (/\.glb|\.gltf/.test(accept)) return "3d";
  return undefined;
}

/** The app page: its form, runs and history (a run link's page passes its token). */
export const appActions = {
  open: async (slug: string, shareToken?: string): Promise<AppView> =>
    (await appsApi.getApp(slug, shareToken)).app,
  start: async (
    slug: string,
    values: Record<string, unknown>,
    shareToken?: string,
  ): Promise<AppRun> => (await appsApi.startRun(slug, values, shareToken)).run,
  /** What a run with these values is expected to cost; null when it cannot be told. */
  estimate: (slug: string, values: Record<string, unknown>, shareToken?: string) =>
    appsApi.estimate(slug, values, shareToken).then(
      (answer) => answer.estimate,
      () => null,
    ),
  /** Above the user's threshold, the estimate is shown and the run waits for a yes. */
  confirmCost: async (total: TotalEstimate | null) =>
    (await import("../costs/cost-prompt.ts")).confirmRunCost(total),
  history: async (slug: string, shareToken?: string): Promise<AppRun[]> =>
    (await appsApi.listRuns(slug, shareToken)).runs,
  read: async (slug: string, runId: string, shareToken?: string): Promise<AppRun> =>
    (await appsApi.getRun(slug, runId, shareToken)).run,
  /** Follows a run until it ends; answers a function that stops. */
  watch: (
    slug: string,
    runId: string,
    shareToken: string | undefined,
    handlers: Pick<AppRunWatchOptions, "onRun" | "onError">,
  ) =>
    watchAppRun(runId, {
      ...handlers,
      read: () => appActions.read(slug, runId, shareToken),
    }),
  /**
   * Uploads a form's file after core's checks (size, type, the field's kind); answers its
   * URL. Progress goes from 0 to 1.
   */
  upload: (
    file: File,
    accept: string,
    onProgress: (fraction: number) => void,
    signal?: AbortSignal,
  ): Promise<string> => {
    const problem = validateUpload(file, uploadKindOf(accept));
    if (problem) return Promise.reject(new ApiError(400, problem));
    return appsApi.uploadFile(file, file.name, onProgress, signal);
  },
  /** Who is signed in, for the page's Run button (the workspace store holds it). */
  loadSession: async (): Promise<void> => {
    const user = await authCache.session();
    sessionChanged(user, user ? await authCache.isAdmin() : false);
  },
};

/** The owner's publishing (the Share dialog's App tab). */
export const publishActions = {
  /** The published settings, or null when the workflow has no app. */
  settings: (workflowId: string): Promise<AppSettings | null> => appsApi.getSettings(workflowId),
  publish: async (workflowId: string, body: PublishAppRequest): Promise<AppSettings> => {
    if (!body.name.trim()) throw new ApiError(400, APP_MESSAGES.nameRequired);
    if (body.outputs.length === 0) throw new ApiError(400, APP_MESSAGES.noOutputs);
    return (await appsApi.publish(workflowId, body)).app;
  },
  unpublish: (workflowId: string) => appsApi.unpublish(workflowId).then(() => undefined),
  /** Puts the text on the clipboard; false when the browser refuses. */
  copy: (text: string): Promise<boolean> =>
    navigator.clipboard
      ? navigator.clipboard.writeText(text).then(
          () => true,
          () => false,
        )
      : Promise.resolve(false),
};
