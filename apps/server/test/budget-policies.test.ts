import { COST_MESSAGES } from "@atelier/core";
import { afterAll, describe, expect, it } from "vitest";
import { type FakeFal, falEnv, startFakeFal } from "./fakes/fal-server.ts";
import { uploadPng, veoFrames } from "./helpers/apps.ts";
import { TestClient } from "./helpers/client.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

/*
 * Budget policies (issue 23): what anonymous sessions of one address may spend together, and
 * models with no published price under a budget (UNPRICED_RUNS).
 */

// A new anonymous session costs nothing to make: their spend is budgeted by address too.
describe("the daily budget of anonymous sessions from one address", () => {
  let fal: FakeFal;
  let server: TestServer;
  afterAll(async () => {
    await server.close();
    await fal.close();
  });

  it("refuses a fresh anonymous session once the address has spent it; accounts go on", async () => {
    fal = await startFakeFal();
    server = await startTestServer({
      ...falEnv(fal),
      PROVIDER_POLL_MS: "30",
      ANONYMOUS_RUNS: "all",
      BUDGET_ANONYMOUS_DAILY_USD_PER_ADDRESS: "1.5",
    });
    const anonymous = async () => {
      const browser = new TestClient(server.url);
      await browser.json("POST", "/api/auth/sign-in/anonymous", {});
      return browser;
    };
    const veo = async (client: TestClient, nodeId: string) => {
      const own = [await uploadPng(client), await uploadPng(client)] as const;
      return client.json<{ error?: string }>(
        "POST",
        "/api/generate/veo31-video",
        veoFrames(own[0], own[1], nodeId),
      );
    };
    expect((await veo(await anonymous(), "a1")).status).toBe(202);
    const refused = await veo(await anonymous(), "a2");
    expect(refused.status).toBe(429);
    expect(refused.body.error).toContain(COST_MESSAGES.overBudget(1.2, "addressDaily", 0.3, 1.5));
    const account = new TestClient(server.url);
    await account.signUp("address-account@example.com");
    expect((await veo(account, "b1")).status).toBe(202);
  });
});

// An operator who wants nothing to escape the budget refuses models without a price.
describe("UNPRICED_RUNS=refuse under a budget", () => {
  let fal: FakeFal;
  let server: TestServer;
  afterAll(async () => {
    await server.close();
    await fal.close();
  });

  it("refuses a model with no published price for a budgeted user, and runs priced ones", async () => {
    fal = await startFakeFal();
    server = await startTestServer({
      ...falEnv(fal),
      PROVIDER_POLL_MS: "30",
      BUDGET_USER_DAILY_USD: "5",
      UNPRICED_RUNS: "refuse",
    });
    const client = new TestClient(server.url);
    await client.signUp("unpriced@example.com");
    const flux = await client.json<{ error: string }>("POST", "/api/generate/flux-pro", {
      nodeId: "f",
      inputs: { prompt: "a cat" },
    });
    expect(flux).toMatchObject({
      status: 403,
      body: { error: COST_MESSAGES.unpriced("FLUX1.1 [pro]") },
    });
    const run = await client.json<{ error: string }>("POST", "/api/runs", {
      graph: {
        nodes: [
          {
            id: "f",
            type: "flux-pro",
            position: { x: 0, y: 0 },
            data: { inputValues: { prompt: { value: "a cat" } } },
          },
        ],
        edges: [],
      },
    });
    expect(run).toMatchObject({ status: 403, body: { error: COST_MESSAGES.unpricedRun(1) } });
    const own = [await uploadPng(client), await uploadPng(client)] as const;
    const veo = await client.json(
      "POST",
      "/api/generate/veo31-video",
      veoFrames(own[0], own[1], "v"),
    );
    expect(veo.status).toBe(202);
  });
});
