import { type Pricing, zUsageQuery } from "@atelier/core";
import type { FastifyInstance } from "fastify";
import { budgetStatusOf, usageOf } from "../commands/usage.ts";
import type { AppContext } from "../context.ts";
import { currentUser, requireSession } from "../http/session.ts";

/** Costs as a user sees them: where their runs go (for estimates), their spend and budgets. */
export async function usageRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const budgets = ctx.config.limits.budgets;
  const anonymousRuns = ctx.config.generation.anonymousRuns;

  // Signed out or anonymous, runs go where ANONYMOUS_RUNS lets them (offline by default).
  app.get("/api/pricing", async (request): Promise<Pricing> => {
    const user = await currentUser(ctx.auth, request);
    const providers = (await ctx.generation()).providers;
    const anonymous = !user || user.isAnonymous;
    const allowed =
      anonymous && anonymousRuns !== "all" ? ["local"] : [...providers.configured].sort();
    return {
      providers: allowed,
      doneLocally: [...providers.doneLocally].sort(),
      order: [...providers.order],
      down: allowed.filter((id) => providers.get(id)?.lastKnownHealth?.() === "down"),
      lacking: Object.fromEntries(
        allowed.flatMap((id) => {
          const lacks = providers.get(id)?.knownLacks?.() ?? {};
          return Object.keys(lacks).length > 0 ? [[id, lacks]] : [];
        }),
      ),
    };
  });

  app.get("/api/usage", async (request) => {
    const user = await requireSession(ctx.auth, request);
    const { days } = zUsageQuery.parse(request.query ?? {});
    return {
      days,
      rows: await usageOf(db, user.id, days),
      budgets: await budgetStatusOf(db, budgets, user.id),
    };
  });
}
