import type { UserLimits } from "@atelier/core";
import { adminApi } from "../../services/admin-api.ts";
import { ApiError } from "../../services/api.ts";
import { costsApi } from "../../services/costs-api.ts";

/** The admin page's commands (components do not call the API themselves). */
export const adminActions = {
  users: async (q: string) => (await adminApi.users(q.trim())).users,
  resetLink: (userId: string) => adminApi.resetLink(userId),
  setDisabled: async (userId: string, disabled: boolean) =>
    (await adminApi.setDisabled(userId, disabled)).user,
  invites: async () => (await adminApi.invites()).invites,
  createInvite: async (email: string) =>
    (await adminApi.createInvite(email.trim() ? { email: email.trim() } : {})).invite,
  deleteInvite: (id: string) => adminApi.deleteInvite(id),
  limits: async (userId: string) => (await costsApi.limits(userId)).limits,
  setLimits: async (userId: string, limits: UserLimits) =>
    (await costsApi.setLimits(userId, limits)).limits,
  spend: (days: number) => costsApi.spend(days),
  health: () => costsApi.health(),
  jobs: async () => (await costsApi.jobs()).jobs,
  cancelJob: (id: string) => costsApi.cancelJob(id),
};

/** Why the page cannot be shown: signed out (401) or not an admin (403); null otherwise. */
export const refusal = (error: unknown): "signed-out" | "not-admin" | null =>
  error instanceof ApiError && error.status === 401
    ? "signed-out"
    : error instanceof ApiError && error.status === 403
      ? "not-admin"
      : null;

/** What a failed call says: the server's message, or that it could not be reached. */
export const adminFailure = (error: unknown) =>
  error instanceof ApiError ? error.message : "Could not reach the server";
