import type { SavedWorkflow } from "@atelier/core";
import { navigate } from "../../services/address-bar.ts";
import { ApiError } from "../../services/api.ts";
import { versionsApi as api } from "../../services/versions-api.ts";
import { changedNodeIds } from "./version-diff.ts";

/** The address of a saved version (read-only), and of the workflow itself. */
export const versionPath = (workflowId: string, version: number) =>
  `/w/${encodeURIComponent(workflowId)}?v=${version}`;
const workflowPath = (workflowId: string) => `/w/${encodeURIComponent(workflowId)}`;

/** What a failed call says to the user. */
export const failureMessage = (error: unknown, fallback: string) =>
  error instanceof ApiError ? error.message || fallback : fallback;

/** The version history's commands, for the History panel and the version page. */
export const versionActions = {
  list: async (workflowId: string) => (await api.list(workflowId)).versions,

  /** A version to show, and the nodes it has that differ from the workflow now. */
  async open(workflowId: string, version: number) {
    const [found, current] = await Promise.all([
      api.read(workflowId, version),
      api.current(workflowId).catch(() => null),
    ]);
    const now = (current?.workflow.data ?? null) as SavedWorkflow | null;
    return {
      version: found.version,
      data: found.data,
      workflowName: current?.workflow.name ?? found.data.metadata.name ?? "Workflow",
      changed: changedNodeIds(found.data, now),
    };
  },

  /** Restores a version as the newest one, then opens the workflow (the restored state). */
  async restore(workflowId: string, version: number) {
    const restored = await api.restore(workflowId, version);
    navigate(workflowPath(workflowId));
    return restored.version;
  },

  name: (workflowId: string, version: number, name: string | null) =>
    api.name(workflowId, version, name),

  preview: (workflowId: string, version: number) => navigate(versionPath(workflowId, version)),
  back: (workflowId: string) => navigate(workflowPath(workflowId)),
  isNotFound: (error: unknown) => error instanceof ApiError && error.status === 404,
};
