import type {
  RestoreVersionResponse,
  VersionListResponse,
  VersionResponse,
  WorkflowRow,
} from "@atelier/core";
import { call } from "./api.ts";

const base = (workflowId: string) => `/api/workflows/${encodeURIComponent(workflowId)}/versions`;

/**
 * A cloud workflow's version history (issue 24). Apart from `api` so the editor's first load
 * does not carry it (the History panel and the version page load it).
 */
export const versionsApi = {
  list: (workflowId: string) => call<VersionListResponse>("GET", base(workflowId)),
  read: (workflowId: string, version: number) =>
    call<VersionResponse>("GET", `${base(workflowId)}/${version}`),
  restore: (workflowId: string, version: number) =>
    call<RestoreVersionResponse>("POST", `${base(workflowId)}/${version}/restore`, {}),
  name: (workflowId: string, version: number, name: string | null) =>
    call<{ success: true }>("PATCH", `${base(workflowId)}/${version}`, { name }),
  current: (workflowId: string) =>
    call<{ workflow: WorkflowRow }>("GET", `/api/workflows/${encodeURIComponent(workflowId)}`),
};
