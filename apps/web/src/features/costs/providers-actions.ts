import type { ProvidersAnswer } from "@atelier/core";
import { ApiError } from "../../services/api.ts";
import { costsApi } from "../../services/costs-api.ts";

/** The configured providers, their health and the nodes each runs (the Providers dialog). */
export const providersActions = {
  load: (): Promise<ProvidersAnswer> => costsApi.providers(),
  failure: (error: unknown) =>
    error instanceof ApiError && error.message ? error.message : "Failed to load the providers",
};
