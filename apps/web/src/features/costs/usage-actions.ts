import type { Usage } from "@atelier/core";
import { ApiError } from "../../services/api.ts";
import { costsApi } from "../../services/costs-api.ts";

/** The signed-in user's spend and budgets (the Usage dialog). */
export const usageActions = {
  load: (days: number): Promise<Usage> => costsApi.usage(days),
  /** The server's words for a failed request, else a general one. */
  failure: (error: unknown) =>
    error instanceof ApiError && error.message ? error.message : "Failed to load your usage",
};
