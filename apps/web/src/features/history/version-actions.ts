import type { SavedWorkflow } from "@atelier/core";
import { navigate } from "../../services/address-bar.ts";
import { ApiError } from "../../services/api.ts";
import { versionsApi } from "../../services/versions-api.ts";
import { DeviceVersionNotFound, deviceVersions } from "../persistence/device-versions.ts";
import { locationOf } from "../persistence/document-io.ts";
import { workflowPath } from "../workspace/url-sync.ts";
import { changedNodeIds } from "./version-diff.ts";

/** The address of a saved version (read-only): the workflow's own, with `?v=`. */
export const versionPath = (workflowId: string, version: number) =>
  `${workflowPath(workflowId)}?v=${version}`;

/** A cloud workflow's versions are on the server; a device-only one's in IndexedDB. */
const source = (workflowId: string) =>
  locationOf(workflowId) === "local" ? deviceVersions : versionsApi;

/** What a failed call says to the user. */
export const failureMessage = (error: unknown, fallback: string) =>
  error instanceof ApiError || error instanceof DeviceVersionNotFound
    ? error.message || fallback
    : fallback;

/** The version history's commands, for the History panel and the version page. */
export const versionActions = {
  list: async (workflowId: string) => (await source(workflowId).list(workflowId)).versions,

  /** A version to show, and the nodes it has that differ from the workflow now. */
  async open(workflowId: string, version: number) {
    const api = source(workflowId);
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
    const restored = await source(workflowId).restore(workflowId, version);
    navigate(workflowPath(workflowId));
    return restored.version;
  },

  name: (workflowId: string, version: number, name: string | null) =>
    source(workflowId).name(workflowId, version, name),

  preview: (workflowId: string, version: number) => navigate(versionPath(workflowId, version)),
  back: (workflowId: string) => navigate(workflowPath(workflowId)),
  isNotFound: (error: unknown) =>
    error instanceof DeviceVersionNotFound || (error instanceof ApiError && error.status === 404),
};
