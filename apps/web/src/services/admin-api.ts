import type { AdminUser, CreateInviteRequest, Invite, ResetLinkResponse } from "@atelier/core";
import { call } from "./api.ts";

/** What only admins call (403 for anyone else): loaded with the admin page. */
export const adminApi = {
  users: (q: string) =>
    call<{ users: AdminUser[] }>(
      "GET",
      `/api/admin/users${q ? `?q=${encodeURIComponent(q)}` : ""}`,
    ),
  setDisabled: (userId: string, disabled: boolean) =>
    call<{ user: AdminUser }>("PATCH", `/api/admin/users/${encodeURIComponent(userId)}`, {
      disabled,
    }),
  resetLink: (userId: string) =>
    call<ResetLinkResponse>(
      "POST",
      `/api/admin/users/${encodeURIComponent(userId)}/reset-link`,
      {},
    ),
  invites: () => call<{ invites: Invite[] }>("GET", "/api/admin/invites"),
  createInvite: (request: CreateInviteRequest) =>
    call<{ invite: Invite }>("POST", "/api/admin/invites", request),
  deleteInvite: (id: string) =>
    call<{ success: true }>("DELETE", `/api/admin/invites/${encodeURIComponent(id)}`),
};
