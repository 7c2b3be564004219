import { zAppParams, zAppRunParams, zAppRunRequest } from "@atelier/core";
import type { FastifyInstance } from "fastify";
import { listAppRuns, planAppRun, readAppRun, startAppRun } from "../commands/apps/app-runs.ts";
import { takeGenerationQuota } from "../commands/quotas/generation-quota.ts";
import { assertRunAffordable, estimatePlan, runBudgetDeps } from "../commands/quotas/run-budget.ts";
import type { AppContext } from "../context.ts";
import { addressOf } from "../http/limits.ts";
import { mediaFileUrl } from "../http/media-presenters.ts";
import { currentUser } from "../http/session.ts";
import { presentAppRun, presentAppView } from "../http/share-presenters.ts";
import { shareTokenOf } from "../http/share-token.ts";
import { assertCanOpenApp, assertCanRunApp } from "../policy/access.ts";

/**
 * Published apps (`/a/{slug}`, or a run link's page): the form, runs of the published
 * version, and the app's history (every run for its owner, one's own for anyone else).
 */
export async function appRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const limits = ctx.config.limits;
  // A file field takes a file uploaded to this server, never an outside URL.
  const uploads = mediaFileUrl(ctx.config.publicUrl, "");
  const isOwnMedia = (url: string) => url.startsWith(uploads) && !url.includes("..");
  const runBudget = runBudgetDeps(ctx);

  app.get("/api/apps/:slug", async (request) => {
    const user = await currentUser(ctx.auth, request);
    const { slug } = zAppParams.parse(request.params);
    const found = await assertCanOpenApp(db, user, slug, shareTokenOf(request));
    return { app: presentAppView(found, user?.id ?? null) };
  });

  app.post("/api/apps/:slug/runs", async (request, reply) => {
    const user = await currentUser(ctx.auth, request);
    const { slug } = zAppParams.parse(request.params);
    const { app: found, runner } = await assertCanRunApp(db, user, slug, shareTokenOf(request));
    const body = zAppRunRequest.parse(request.body ?? {});
    const starter = { id: runner.id, isAnonymous: false, address: addressOf(request) };
    await takeGenerationQuota(db, limits, starter, { run: true });
    const run = await startAppRun(db, runner.id, found, body, isOwnMedia, (plan) =>
      assertRunAffordable(runBudget, runner.id, plan),
    );
    await (await ctx.runs()).kick(runner.id);
    const read = await readAppRun(db, found, runner.id, run.id);
    return reply.code(202).send({ run: presentAppRun(read, found, runner.id) });
  });

  // What a run with these values is expected to cost the runner (nothing is started).
  app.post("/api/apps/:slug/estimate", async (request) => {
    const user = await currentUser(ctx.auth, request);
    const { slug } = zAppParams.parse(request.params);
    const { app: found, runner } = await assertCanRunApp(db, user, slug, shareTokenOf(request));
    const body = zAppRunRequest.parse(request.body ?? {});
    const plan = planAppRun(found, body, isOwnMedia);
    return { estimate: await estimatePlan(runBudget, runner.id, plan) };
  });

  app.get("/api/apps/:slug/runs", async (request) => {
    const user = await currentUser(ctx.auth, request);
    const { slug } = zAppParams.parse(request.params);
    const { app: found, runner } = await assertCanRunApp(db, user, slug, shareTokenOf(request));
    const reads = await listAppRuns(db, found, runner.id);
    return { runs: reads.map((read) => presentAppRun(read, found, runner.id)) };
  });

  app.get("/api/apps/:slug/runs/:runId", async (request) => {
    const user = await currentUser(ctx.auth, request);
    const { slug, runId } = zAppRunParams.parse(request.params);
    const { app: found, runner } = await assertCanRunApp(db, user, slug, shareTokenOf(request));
    const read = await readAppRun(db, found, runner.id, runId);
    return { run: presentAppRun(read, found, runner.id) };
  });
}
