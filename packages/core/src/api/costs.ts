import { z } from "zod";

import { dollars } from "./money.ts";

/** The budgets a run may be refused by, as the refusal names them. */
export const BUDGET_NAMES = {
  userDaily: "your daily budget",
  userMonthly: "your monthly budget",
  addressDaily: "the daily budget of anonymous sessions from your address (sign in to run more)",
  instanceDaily: "this instance's daily budget",
  instanceMonthly: "this instance's monthly budget",
} as const;
export type BudgetName = keyof typeof BUDGET_NAMES;

export const COST_MESSAGES = {
  /** 429: a start whose estimate is more than a budget has left (nothing was submitted). */
  overBudget: (cost: number, budget: BudgetName, left: number, limit: number) =>
    `Over budget: this would cost ${dollars(cost)} but ${dollars(left)} is left of ${BUDGET_NAMES[budget]} (${dollars(limit)})`,
  /** Asked before Run all / Run to here / an app run above the user's threshold. */
  confirmRun: (total: string, unknown: number) =>
    unknown > 0
      ? `This run is estimated at ${total}, plus ${unknown} node${unknown === 1 ? "" : "s"} with no published price. Run it?`
      : `This run is estimated at ${total}. Run it?`,
  /** 403 (UNPRICED_RUNS=refuse): a model with no published price, under a budget. */
  unpriced: (model: string) =>
    `${model} has no published price: under a budget, this server runs only models with one`,
  /** 403 (UNPRICED_RUNS=refuse): a run with such steps. */
  unpricedRun: (steps: number) =>
    `This run has ${steps} step${steps === 1 ? "" : "s"} with no published price: under a budget, this server runs only models with one`,
  /** A run the user chose not to start at its estimate. */
  declined: "Not run: its estimated cost was not confirmed",
} as const;

/** A run's estimate: the known part in US dollars, and how many steps have no price. */
export const zTotalEstimate = z.object({ usd: z.number(), unknown: z.number().int() });

/** GET /api/pricing: where this session's jobs may run, for estimates in the editor. */
export const zPricing = z.object({
  /** Providers this session's jobs may use (`local` always). */
  providers: z.array(z.string()),
  /** Node types this server does itself whatever keys are set (free). */
  doneLocally: z.array(z.string()),
  /** The operator's preference where several providers can run a node (PROVIDER_ORDER). */
  order: z.array(z.string()).optional(),
  /** Providers whose last check failed (ComfyUI unreachable): their nodes say so. */
  down: z.array(z.string()).optional(),
  /** Per provider, node types it cannot run here (a model file missing…), with why. */
  lacking: z.record(z.string(), z.record(z.string(), z.string())).optional(),
});
export type Pricing = z.infer<typeof zPricing>;

const zBudget = z.object({ limitUsd: z.number(), spentUsd: z.number() }).nullable();

/** One day's spend on one model: completed jobs, their cost, and how many had no price. */
export const zUsageRow = z.object({
  day: z.string(),
  model: z.string(),
  jobs: z.number().int(),
  usd: z.number(),
  unpriced: z.number().int(),
});
export type UsageRow = z.infer<typeof zUsageRow>;

/** GET /api/usage: the user's spend by day and model, and their budgets. */
export const zUsage = z.object({
  days: z.number().int(),
  rows: z.array(zUsageRow),
  budgets: z.object({ daily: zBudget, monthly: zBudget }),
});
export type Usage = z.infer<typeof zUsage>;

export const zUsageQuery = z.object({
  days: z.coerce.number().int().min(1).max(366).default(30),
});

const usdOrNull = z.number().min(0).max(1_000_000).nullable();
const countOrNull = z.number().int().min(1).max(1_000_000).nullable();

/** PUT /api/admin/users/:id/limits: one user's own limits (null: the instance's default). */
export const zUserLimits = z.object({
  generationsPerMinute: countOrNull,
  concurrentJobs: countOrNull,
  dailyBudgetUsd: usdOrNull,
  monthlyBudgetUsd: usdOrNull,
});
export type UserLimits = z.infer<typeof zUserLimits>;

/** GET /api/admin/spend: completed jobs' cost by provider and by user over `days`. */
export const zAdminSpend = z.object({
  days: z.number().int(),
  byProvider: z.array(
    z.object({
      provider: z.string(),
      jobs: z.number().int(),
      usd: z.number(),
      unpriced: z.number().int(),
    }),
  ),
  byUser: z.array(
    z.object({
      userId: z.string(),
      email: z.string().nullable(),
      jobs: z.number().int(),
      usd: z.number(),
      unpriced: z.number().int(),
    }),
  ),
});
export type AdminSpend = z.infer<typeof zAdminSpend>;

/** GET /api/admin/health: how the instance is doing, now. */
export const zInstanceHealth = z.object({
  queue: z.object({
    /** Jobs waiting for a worker or a provider slot. */
    queued: z.number().int(),
    running: z.number().int(),
    /** Seconds the oldest queued job has waited; null when none waits. */
    oldestQueuedSeconds: z.number().nullable(),
    /** Server-side runs not yet finished. */
    activeRuns: z.number().int(),
  }),
  /** Processes working the queue, seen within the last minute. */
  workers: z.array(
    z.object({
      host: z.string(),
      pid: z.number().int(),
      concurrency: z.number().int(),
      startedAt: z.string(),
      seenAt: z.string(),
    }),
  ),
  storage: z.object({ mediaBytes: z.number(), workflowBytes: z.number() }),
  /** Jobs that failed in the last hour, by provider, with the latest error. */
  providerErrors: z.array(
    z.object({ provider: z.string(), failed: z.number().int(), lastError: z.string().nullable() }),
  ),
});
export type InstanceHealth = z.infer<typeof zInstanceHealth>;

/** One job as an admin sees it (GET /api/admin/jobs), across users. */
export const zAdminJob = z.object({
  id: z.string(),
  email: z.string().nullable(),
  model: z.string(),
  provider: z.string(),
  status: z.string(),
  createdAt: z.string(),
  costUsd: z.number().nullable(),
  error: z.string().nullable(),
});
export type AdminJob = z.infer<typeof zAdminJob>;
export const zAdminJobList = z.object({ jobs: z.array(zAdminJob) });
export const zAdminJobParams = z.object({ id: z.string().min(1).max(200) });
