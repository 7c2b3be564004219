import {
  type AnonymousRuns,
  COST_MESSAGES,
  estimateGraphRun,
  type RunPlan,
  type TotalEstimate,
} from "@atelier/core";
import type { AppContext } from "../../context.ts";
import type { AppDb } from "../../db/client.ts";
import { ForbiddenError } from "../../domain/errors.ts";
import type { SpendBudgets } from "../../env-limits.ts";
import type { ProviderRegistry } from "../../providers/registry.ts";
import { providersFor } from "../generation.ts";
import { assertAffordable, budgetApplies } from "./spend-budget.ts";

export interface RunBudgetDeps {
  db: AppDb;
  budgets: SpendBudgets;
  providers: () => Promise<ProviderRegistry>;
  anonymousRuns: AnonymousRuns;
}

/** The run budget check's needs, from the app's context (providers start on first use). */
export function runBudgetDeps(ctx: AppContext): RunBudgetDeps {
  return {
    db: ctx.database.db,
    budgets: ctx.config.limits.budgets,
    providers: async () => (await ctx.generation()).providers,
    anonymousRuns: ctx.config.generation.anonymousRuns,
  };
}

/**
 * Refuses a run whose steps together are estimated above what a budget has left, before
 * anything is written or submitted (each job is checked again as it starts). Steps with no
 * published price count for nothing.
 */
export async function assertRunAffordable(
  deps: RunBudgetDeps,
  userId: string,
  plan: RunPlan,
  /** An anonymous session's address. */
  address: string | null = null,
): Promise<void> {
  const { db, budgets } = deps;
  if (!(await budgetApplies(db, budgets, userId, address))) return;
  const total = await estimatePlan(deps, userId, plan);
  if (total.unknown > 0 && budgets.refuseUnpriced)
    throw new ForbiddenError(COST_MESSAGES.unpricedRun(total.unknown));
  await assertAffordable(db, budgets, userId, total.usd, address);
}

/** What a planned run is expected to cost this user, where their runs would go. */
export async function estimatePlan(
  deps: RunBudgetDeps,
  userId: string,
  plan: RunPlan,
): Promise<TotalEstimate> {
  const providers = await deps.providers();
  const configured = await providersFor(deps.db, providers, userId, deps.anonymousRuns);
  return estimateGraphRun(
    plan,
    plan.steps.map((step) => step.id),
    { configured, doneLocally: providers.doneLocally },
  );
}
