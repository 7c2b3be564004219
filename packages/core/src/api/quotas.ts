/** What anonymous sessions may run (ANONYMOUS_RUNS): offline only, everything, or nothing. */
export const ANONYMOUS_RUNS = ["local", "all", "none"] as const;
export type AnonymousRuns = (typeof ANONYMOUS_RUNS)[number];

export const ANONYMOUS_RUN_MESSAGES = {
  none: "Sign in to run generations on this server",
} as const;
