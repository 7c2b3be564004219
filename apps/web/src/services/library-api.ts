import type {
  ApiToken,
  CreateApiTokenResponse,
  Folder,
  WorkflowListQuery,
  WorkflowSummary,
} from "@atelier/core";
import { LIMITS } from "@atelier/core";
import { ApiError, call } from "./api.ts";

/**
 * The library's and the account menu's calls: they load with those panels, not with the
 * editor's first paint (bench F1).
 */
export const libraryApi = {
  listWorkflows: (query: WorkflowListQuery = {}) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query))
      if (value !== undefined && value !== "") search.set(key, String(value));
    const text = search.toString();
    return call<{ workflows: WorkflowSummary[]; nextOffset: number | null }>(
      "GET",
      `/api/workflows${text ? `?${text}` : ""}`,
    );
  },
  deleteWorkflow: (id: string) => call("DELETE", `/api/workflows/${encodeURIComponent(id)}`),
  /** SPEC §6: a 401 from the folder list means "no folders". */
  listFolders: () =>
    call<{ folders: Folder[] }>(
      "GET",
      "/api/folders",
      undefined,
      LIMITS.timing.folderListTimeoutMs,
    ).catch((error) => {
      if (error instanceof ApiError && error.status === 401) return { folders: [] as Folder[] };
      throw error;
    }),
  createFolder: (name: string) =>
    call<{ folder: Folder }>("POST", "/api/folders", { name }, LIMITS.timing.folderListTimeoutMs),
  renameFolder: (id: string, name: string) =>
    call<{ folder: Folder }>("PATCH", `/api/folders/${encodeURIComponent(id)}`, { name }),
  deleteFolder: (id: string) => call("DELETE", `/api/folders/${encodeURIComponent(id)}`),
  moveWorkflows: (folderId: string | null, workflowIds: string[]) =>
    call("PUT", `/api/folders/${encodeURIComponent(folderId ?? "unfiled")}/workflows`, {
      workflowIds,
    }),
  copyWorkflows: (folderId: string | null, workflowIds: string[]) =>
    call<{ workflowIds: string[] }>(
      "POST",
      `/api/folders/${encodeURIComponent(folderId ?? "unfiled")}/workflows`,
      { workflowIds },
    ),
  fork: (sourceWorkflowId: string) =>
    call<{ workflowId: string }>("POST", "/api/workflows/fork", { sourceWorkflowId }),
  /** Personal API tokens (account menu): listed without their text, which only creation shows. */
  listTokens: () => call<{ tokens: ApiToken[] }>("GET", "/api/tokens"),
  createToken: (name: string) => call<CreateApiTokenResponse>("POST", "/api/tokens", { name }),
  revokeToken: (id: string) => call("DELETE", `/api/tokens/${encodeURIComponent(id)}`),
};
