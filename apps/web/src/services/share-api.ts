import type { CreateShareRequest, ShareLink, ShareOpenResponse } from "@atelier/core";
import { call } from "./api.ts";

const path = (workflowId: string) => `/api/workflows/${encodeURIComponent(workflowId)}/shares`;

/** Share links (loaded with the Share dialog or a link's page, not with the editor). */
export const shareApi = {
  list: (workflowId: string) => call<{ shares: ShareLink[] }>("GET", path(workflowId)),
  create: (workflowId: string, request: CreateShareRequest) =>
    call<{ share: ShareLink }>("POST", path(workflowId), request),
  revoke: (workflowId: string, id: string) =>
    call("DELETE", `${path(workflowId)}/${encodeURIComponent(id)}`),
  /** What a link opens; 404 "Link not found or no longer shared" once revoked or expired. */
  open: (token: string) =>
    call<ShareOpenResponse>("GET", `/api/shares/${encodeURIComponent(token)}`),
};
