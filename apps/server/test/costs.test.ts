import { COST_MESSAGES, serializeWorkflow, type Usage } from "@atelier/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budgetPeriods } from "../src/commands/quotas/spend-budget.ts";
import { jobs, user, userQuotas } from "../src/db/schema.ts";
import { type FakeFal, falEnv, startFakeFal } from "./fakes/fal-server.ts";
import { uploadPng, veoFrames } from "./helpers/apps.ts";
import { TestClient } from "./helpers/client.ts";
import { waitForJob } from "./helpers/jobs.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

/*
 * Costs (issue 23): each job records its endpoint's published price, budgets refuse a start
 * that would exceed them before anything reaches the provider, and spend is reported by day
 * and model (to the user) and by provider and user (to admins).
 */

describe("costs and budgets", () => {
  let fal: FakeFal;
  let server: TestServer;
  let alice: TestClient;
  let frames: [string, string];

  beforeAll(async () => {
    fal = await startFakeFal();
    server = await startTestServer({
      ...falEnv(fal),
      PROVIDER_POLL_MS: "30",
      BUDGET_USER_DAILY_USD: "2",
    });
    await server.ctx.work({ concurrency: 2 });
    alice = new TestClient(server.url);
    await alice.signUp("alice-costs@example.com");
    frames = [await uploadPng(alice), await uploadPng(alice)];
  });
  afterAll(async () => {
    await server.close();
    await fal.close();
  });

  it("records a finished job's cost and shows it in the user's usage by day and model", async () => {
    fal.script("next", [{ status: "COMPLETED" }], {
      status: 200,
      body: { video: { url: fal.mediaUrl("clip.mp4") } },
    });
    const started = await alice.json<{ requestId: string }>(
      "POST",
      "/api/generate/veo31-video",
      veoFrames(frames[0], frames[1], "veo-1"),
    );
    expect(started.status).toBe(202);
    const done = await waitForJob(alice, started.body.requestId);
    expect(done.status).toBe("COMPLETED");
    expect(fal.jobs.at(-1)?.endpoint).toBe("fal-ai/veo3.1/fast/first-last-frame-to-video");
    // The video's provenance says what it cost.
    const sidecar = await fetch(`${String(done.outputs?.videoUrl)}.atelier.json`);
    expect(await sidecar.json()).toMatchObject({ model: "veo31-video", cost: 1.2 });
    const [row] = await server.ctx.database.db
      .select({ cost: jobs.costUsd })
      .from(jobs)
      .where(eq(jobs.id, started.body.requestId));
    expect(row?.cost).toBe(1.2);

    // A model with no published price is counted, as unpriced.
    const flux = await alice.json<{ requestId: string }>("POST", "/api/generate/flux-pro", {
      nodeId: "flux-1",
      inputs: { prompt: "a cat" },
    });
    expect((await waitForJob(alice, flux.body.requestId)).status).toBe("COMPLETED");

    const usage = await alice.json<Usage>("GET", "/api/usage?days=7");
    const today = budgetPeriods(new Date()).day.toISOString().slice(0, 10);
    expect(usage.body.rows).toEqual([
      { day: today, model: "flux-pro", jobs: 1, usd: 0, unpriced: 1 },
      { day: today, model: "veo31-video", jobs: 1, usd: 1.2, unpriced: 0 },
    ]);
    expect(usage.body.budgets).toEqual({ daily: { limitUsd: 2, spentUsd: 1.2 }, monthly: null });
  });

  it("refuses a start over the daily budget before anything reaches the provider", async () => {
    const submits = fal.counters.created;
    const refused = await alice.json<{ error: string }>(
      "POST",
      "/api/generate/veo31-video",
      veoFrames(frames[0], frames[1], "veo-2"),
    );
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(
      new RegExp(
        `^${COST_MESSAGES.overBudget(1.2, "userDaily", 0.8, 2).replace(/[$().]/g, "\\$&")}\\. Try again in .+\\.$`,
      ),
    );
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(86_400);
    expect(fal.counters.created).toBe(submits);
    // Free and unpriced runs go on.
    const flux = await alice.json("POST", "/api/generate/flux-pro", {
      nodeId: "flux-2",
      inputs: { prompt: "a dog" },
    });
    expect(flux.status).toBe(202);
  });

  it("refuses a run whose estimate is over the budget, writing nothing", async () => {
    const node = (id: string, type: string, inputValues: Record<string, unknown> = {}) => ({
      id,
      type,
      position: { x: 0, y: 0 },
      data: {
        inputValues: Object.fromEntries(
          Object.entries(inputValues).map(([key, value]) => [key, { value }]),
        ),
        ...(type === "utility"
          ? { outputs: { imageUrl: frames[0] }, outputValues: { output: { value: frames[0] } } }
          : {}),
      },
    });
    const graph = {
      nodes: [
        node("first", "utility"),
        node("last", "utility"),
        node("veo", "veo31-video", { prompt: "waves", model: "fast", duration: "4s" }),
      ],
      edges: [
        {
          id: "e1",
          source: "first",
          target: "veo",
          sourceHandle: "output",
          targetHandle: "firstFrame",
        },
        {
          id: "e2",
          source: "last",
          target: "veo",
          sourceHandle: "output",
          targetHandle: "lastFrame",
        },
      ],
    };
    // 4 s × $0.15 = $0.60 fits what is left ($0.80); 8 s ($1.20) does not.
    const runsBefore = (await alice.json<{ runs: unknown[] }>("GET", "/api/runs")).body.runs.length;
    const over = await alice.json<{ error: string }>("POST", "/api/runs", {
      graph: {
        ...graph,
        nodes: graph.nodes.map((n) =>
          n.id === "veo" ? node("veo", "veo31-video", { prompt: "waves", model: "fast" }) : n,
        ),
      },
    });
    expect(over.status).toBe(429);
    expect(over.body.error).toContain(COST_MESSAGES.overBudget(1.2, "userDaily", 0.8, 2));
    expect((await alice.json<{ runs: unknown[] }>("GET", "/api/runs")).body.runs).toHaveLength(
      runsBefore,
    );
    const fits = await alice.json<{ run: { id: string } }>("POST", "/api/runs", { graph });
    expect(fits.status).toBe(202);
    // A finished run says what its steps cost.
    const read = async () =>
      (
        await alice.json<{ run: { status: string; cost: number | null } }>(
          "GET",
          `/api/runs/${fits.body.run.id}`,
        )
      ).body.run;
    await expect.poll(async () => (await read()).status, { timeout: 30_000 }).toBe("completed");
    expect((await read()).cost).toBe(0.6);
  });

  it("an admin sets a user's own budget, and sees spend by provider and user", async () => {
    const admin = new TestClient(server.url);
    await admin.signUp("admin@example.com");
    await server.ctx.database.db
      .update(user)
      .set({ isAdmin: true })
      .where(eq(user.email, "admin@example.com"));
    const bob = new TestClient(server.url);
    await bob.signUp("bob-costs@example.com");
    const [bobRow] = await server.ctx.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, "bob-costs@example.com"));
    const limits = {
      generationsPerMinute: null,
      concurrentJobs: null,
      dailyBudgetUsd: 1,
      monthlyBudgetUsd: null,
    };
    expect((await bob.json("PUT", `/api/admin/users/${bobRow?.id}/limits`, limits)).status).toBe(
      403,
    );
    const set = await admin.json("PUT", `/api/admin/users/${bobRow?.id}/limits`, limits);
    expect(set).toMatchObject({ status: 200, body: { limits } });
    expect((await admin.json("GET", `/api/admin/users/${bobRow?.id}/limits`)).body).toEqual({
      limits,
    });
    const bobFrames = [await uploadPng(bob), await uploadPng(bob)] as const;
    const refused = await bob.json<{ error: string }>(
      "POST",
      "/api/generate/veo31-video",
      veoFrames(bobFrames[0], bobFrames[1], "veo-b"),
    );
    expect(refused.status).toBe(429);
    expect(refused.body.error).toContain(COST_MESSAGES.overBudget(1.2, "userDaily", 1, 1));
    expect((await admin.json("GET", "/api/admin/users/nobody/limits")).status).toBe(404);

    const spend = await admin.json<{
      byProvider: { provider: string; usd: number }[];
      byUser: { email: string | null; usd: number }[];
    }>("GET", "/api/admin/spend?days=1");
    expect(spend.status).toBe(200);
    // Alice's 8 s Veo ($1.20) and her run's 4 s one ($0.60).
    expect(spend.body.byProvider.find((row) => row.provider === "fal")?.usd).toBe(1.8);
    expect(spend.body.byUser[0]).toMatchObject({ email: "alice-costs@example.com", usd: 1.8 });
  });

  it("five priced starts at once with room for one: one is taken, four refused", async () => {
    const carol = new TestClient(server.url);
    await carol.signUp("carol-costs@example.com");
    const [row] = await server.ctx.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, "carol-costs@example.com"));
    await server.ctx.database.db
      .insert(userQuotas)
      .values({ userId: row?.id as string, dailyBudgetUsd: 1.5 });
    const own = [await uploadPng(carol), await uploadPng(carol)] as const;
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, n) =>
        carol.json("POST", "/api/generate/veo31-video", veoFrames(own[0], own[1], `c${n}`)),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 429, 429, 429, 429]);
  });

  it("estimates an app run with the form's values for its runner", async () => {
    const frame = (id: string, y: number) => ({
      id,
      type: "utility",
      position: { x: 0, y },
      data: {
        label: id,
        outputs: { imageUrl: frames[0] },
        outputValues: { output: { value: frames[0] } },
      },
    });
    const data = serializeWorkflow(
      {
        nodes: [
          frame("first", 0),
          frame("last", 200),
          {
            id: "veo",
            type: "veo31-video",
            position: { x: 400, y: 0 },
            data: {
              label: "veo",
              inputValues: {
                prompt: { value: "waves" },
                model: { value: "fast" },
                duration: { value: "8s" },
              },
            },
          },
        ],
        edges: [
          {
            id: "e1",
            source: "first",
            sourceHandle: "output",
            target: "veo",
            targetHandle: "firstFrame",
          },
          {
            id: "e2",
            source: "last",
            sourceHandle: "output",
            target: "veo",
            targetHandle: "lastFrame",
          },
        ],
        metadata: { name: "Clip" },
      },
      { now: Date.UTC(2026, 10, 1) },
    );
    const created = await alice.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
      name: "Clip",
      data,
    });
    const published = await alice.json<{ app: { slug: string } }>(
      "PUT",
      `/api/workflows/${created.body.workflow.id}/app`,
      {
        name: "Clip",
        description: "",
        fields: [{ kind: "param", nodeId: "veo", param: "duration", label: "Length" }],
        outputs: [{ nodeId: "veo", label: "Clip" }],
      },
    );
    expect(published.status).toBe(200);
    const slug = published.body.app.slug;
    const estimate = (values: Record<string, unknown>) =>
      alice.json<{ estimate: { usd: number; unknown: number } }>(
        "POST",
        `/api/apps/${slug}/estimate`,
        { values },
      );
    expect((await estimate({})).body).toEqual({ estimate: { usd: 1.2, unknown: 0 } });
    expect((await estimate({ "veo/duration": "4s" })).body).toEqual({
      estimate: { usd: 0.6, unknown: 0 },
    });
  });

  it("tells the editor where this session's runs go, for estimates", async () => {
    const own = await alice.json<{ providers: string[] }>("GET", "/api/pricing");
    expect(own.body.providers).toEqual(["fal", "local"]);
    const visitor = await new TestClient(server.url).json<{ providers: string[] }>(
      "GET",
      "/api/pricing",
    );
    expect(visitor.body.providers).toEqual(["local"]);
  });
});
