import type {
  AdminJob,
  AdminSpend,
  InstanceHealth,
  Pricing,
  ProvidersAnswer,
  Usage,
  UserLimits,
} from "@atelier/core";
import { call } from "./api.ts";

/** Costs: where this session's runs go (for estimates), its spend, and admins' views. */
export const costsApi = {
  pricing: () => call<Pricing>("GET", "/api/pricing"),
  providers: () => call<ProvidersAnswer>("GET", "/api/providers"),
  usage: (days: number) => call<Usage>("GET", `/api/usage?days=${days}`),
  limits: (userId: string) =>
    call<{ limits: UserLimits }>("GET", `/api/admin/users/${encodeURIComponent(userId)}/limits`),
  setLimits: (userId: string, limits: UserLimits) =>
    call<{ limits: UserLimits }>(
      "PUT",
      `/api/admin/users/${encodeURIComponent(userId)}/limits`,
      limits,
    ),
  spend: (days: number) => call<AdminSpend>("GET", `/api/admin/spend?days=${days}`),
  health: () => call<InstanceHealth>("GET", "/api/admin/health"),
  jobs: () => call<{ jobs: AdminJob[] }>("GET", "/api/admin/jobs"),
  cancelJob: (id: string) =>
    call<{ job: { id: string; status: string } }>(
      "POST",
      `/api/admin/jobs/${encodeURIComponent(id)}/cancel`,
      {},
    ),
};
