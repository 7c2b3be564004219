import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ANONYMOUS_RUN_MESSAGES } from "@atelier/core";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { jobs, userQuotas } from "../src/db/schema.ts";
import { type FakeFal, falEnv, startFakeFal } from "./fakes/fal-server.ts";
import { TestClient } from "./helpers/client.ts";
import { createPostgresDatabaseUrl, TEST_DB_KIND } from "./helpers/database.ts";
import { waitForJob } from "./helpers/jobs.ts";
import { type ServerProcess, startServerProcess } from "./helpers/process.ts";
import { freePort, startTestServer, type TestServer } from "./helpers/server.ts";

/** A signed-out browser's anonymous session on the server. */
async function anonymousBrowser(server: TestServer): Promise<TestClient> {
  const browser = new TestClient(server.url);
  const signedIn = await browser.json("POST", "/api/auth/sign-in/anonymous", {});
  if (signedIn.status !== 200) throw new Error(`anonymous sign-in: ${signedIn.status}`);
  return browser;
}

const start = (client: TestClient, n: number | string, model = "flux-pro") =>
  client.json<{ requestId?: string; error?: string }>("POST", `/api/generate/${model}`, {
    nodeId: `node-${n}`,
    inputs: { prompt: `prompt ${n}` },
  });

describe("generation quotas (issue 23)", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("an anonymous session firing 200 starts gets its per-minute quota, the rest 429 with Retry-After", async () => {
    server = await startTestServer({
      ANONYMOUS_GENERATIONS_PER_MINUTE: "10",
      RATE_LIMIT_ANONYMOUS_GENERATIONS_PER_MINUTE: "1000",
    });
    const browser = await anonymousBrowser(server);
    const answers = [];
    const startedAt = Date.now();
    // Twenty at a time, as fast as the server answers (well within the 10 s of the issue).
    for (let batch = 0; batch < 10; batch++)
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 20 }, (_, index) => start(browser, batch * 20 + index)),
        )),
      );
    // The minute starts with the session's first start: the burst gets its 10, no more.
    expect(Date.now() - startedAt).toBeLessThan(60_000);
    const accepted = answers.filter((answer) => answer.status === 202);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(accepted).toHaveLength(10);
    expect(refused).toHaveLength(190);
    for (const answer of refused) {
      expect(answer.body.error).toMatch(
        /^Too many generations: at most 10 a minute per anonymous session \(sign in to run more\)\. Try again in .+\.$/,
      );
      const wait = Number(answer.headers.get("retry-after"));
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
    }
    const rows = await server.ctx.database.db.select({ id: jobs.id }).from(jobs);
    expect(rows).toHaveLength(accepted.length);
  });

  it("anonymous sessions from one address share the address's quota", async () => {
    server = await startTestServer({
      ANONYMOUS_GENERATIONS_PER_MINUTE: "10",
      RATE_LIMIT_ANONYMOUS_GENERATIONS_PER_MINUTE: "15",
    });
    const statuses: number[] = [];
    let last = "";
    for (let session = 0; session < 3; session++) {
      const browser = await anonymousBrowser(server);
      for (let n = 0; n < 10; n++) {
        const answer = await start(browser, `${session}-${n}`);
        statuses.push(answer.status);
        if (answer.status === 429) last = String(answer.body.error);
      }
    }
    expect(statuses.filter((status) => status === 202)).toHaveLength(15);
    expect(last).toMatch(
      /^Too many generations from this address: at most 15 a minute for anonymous sessions \(sign in to run more\)\./,
    );
  });

  it("limits jobs queued or running at once; an admin's override raises it for one user", async () => {
    server = await startTestServer({
      CONCURRENT_JOBS_PER_USER: "2",
      CONCURRENT_JOBS_PER_ANONYMOUS: "1",
    });
    const alice = new TestClient(server.url);
    const { user } = await alice.signUp("alice@example.com");
    // No worker runs: every job stays queued.
    expect((await start(alice, 1)).status).toBe(202);
    expect((await start(alice, 2)).status).toBe(202);
    const third = await start(alice, 3);
    expect(third.status).toBe(429);
    expect(third.body.error).toMatch(
      /^Too many jobs at once: at most 2 queued or running per user\./,
    );
    expect(third.headers.get("retry-after")).toBe("5");
    await server.ctx.database.db.insert(userQuotas).values({ userId: user.id, concurrentJobs: 3 });
    expect((await start(alice, 3)).status).toBe(202);
    expect((await start(alice, 4)).status).toBe(429);

    const browser = await anonymousBrowser(server);
    expect((await start(browser, "a")).status).toBe(202);
    const second = await start(browser, "b");
    expect(second.body.error).toMatch(
      /^Too many jobs at once: at most 1 queued or running per anonymous session \(sign in to run more\)\./,
    );
  });

  it("ANONYMOUS_RUNS=none refuses anonymous starts; accounts still run", async () => {
    server = await startTestServer({ ANONYMOUS_RUNS: "none" });
    const browser = await anonymousBrowser(server);
    const refused = await start(browser, 1);
    expect(refused).toMatchObject({ status: 403, body: { error: ANONYMOUS_RUN_MESSAGES.none } });
    const account = new TestClient(server.url);
    await account.signUp("bob@example.com");
    expect((await start(account, 1)).status).toBe(202);
  });
});

describe("ANONYMOUS_RUNS=local with a paid provider configured", () => {
  let fal: FakeFal;
  let server: TestServer;
  afterAll(async () => {
    await server.close();
    await fal.close();
  });

  it("runs anonymous sessions offline (fal is never called) and accounts on fal", async () => {
    fal = await startFakeFal();
    server = await startTestServer({
      ...falEnv(fal),
      PROVIDER_POLL_MS: "30",
      LOCAL_PROVIDER_STEP_MS: "5",
    });
    await (await server.ctx.generation()).engine.work({ concurrency: 2 });
    const browser = await anonymousBrowser(server);
    const anonymous = await start(browser, "offline");
    expect(anonymous.status).toBe(202);
    const done = await waitForJob(browser, String(anonymous.body.requestId));
    expect(done.status).toBe("COMPLETED");
    expect(fal.counters.created).toBe(0);
    const [row] = await server.ctx.database.db
      .select({ provider: jobs.provider })
      .from(jobs)
      .where(eq(jobs.id, String(anonymous.body.requestId)));
    expect(row?.provider).toBe("local");

    const account = new TestClient(server.url);
    await account.signUp("paying@example.com");
    const paid = await start(account, "paid");
    expect((await waitForJob(account, String(paid.body.requestId))).status).toBe("COMPLETED");
    expect(fal.counters.created).toBe(1);
  });
});

// Two web processes on one PostgreSQL: the quota is the database's, not a process's.
describe.runIf(TEST_DB_KIND === "postgres")("quotas across two processes", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "atelier-quota-"));
  const processes: ServerProcess[] = [];
  let dropDatabase: () => Promise<void> = async () => undefined;
  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop()));
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("an anonymous session alternating between them gets one quota in all", async () => {
    const database = await createPostgresDatabaseUrl();
    dropDatabase = database.drop;
    const common = {
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      AUTH_SECRET: "quota-secret-quota-secret-quota-secret-01",
      ANONYMOUS_GENERATIONS_PER_MINUTE: "10",
      CONCURRENT_JOBS_PER_ANONYMOUS: "1000",
      CONCURRENT_JOBS_PER_ANONYMOUS_ADDRESS: "1000",
      RATE_LIMIT_ANONYMOUS_GENERATIONS_PER_MINUTE: "1000",
    };
    const ports = [await freePort(), await freePort()];
    const [a, b] = await Promise.all(
      ports.map((port) =>
        startServerProcess("web", {
          ...common,
          PORT: String(port),
          PUBLIC_URL: `http://127.0.0.1:${port}`,
        }),
      ),
    );
    processes.push(a as ServerProcess, b as ServerProcess);
    const onA = new TestClient((a as ServerProcess).url);
    await onA.json("POST", "/api/auth/sign-in/anonymous", {});
    // The same browser session on the other process.
    const onB = new TestClient((b as ServerProcess).url);
    const generate = (n: number) =>
      (n % 2 === 0 ? onA : onB).raw("POST", "/api/generate/flux-pro", {
        body: JSON.stringify({ nodeId: `n${n}`, inputs: { prompt: `p${n}` } }),
        headers: {
          "content-type": "application/json",
          cookie: onA.cookieHeader(),
          origin: (n % 2 === 0 ? onA : onB).baseUrl,
        },
      });
    const startedAt = Date.now();
    // Four one after another, so both processes take some; then 36 at once race for the rest.
    const first: Awaited<ReturnType<typeof generate>>[] = [];
    for (let n = 0; n < 4; n += 1) first.push(await generate(n));
    expect(first.map((answer) => answer.status)).toEqual([202, 202, 202, 202]);
    const rest = await Promise.all(Array.from({ length: 36 }, (_, n) => generate(n + 4)));
    expect(Date.now() - startedAt).toBeLessThan(60_000);
    expect(rest.filter((answer) => answer.status === 202)).toHaveLength(6);
    expect(rest.filter((answer) => answer.status === 429)).toHaveLength(30);
  }, 120_000);
});

// A new anonymous session is free to make: jobs at once are counted by address too.
describe("jobs at once from one address", () => {
  let server: TestServer;
  afterAll(async () => server.close());

  it("fresh anonymous sessions from one address share its jobs at once; accounts do not", async () => {
    server = await startTestServer({
      CONCURRENT_JOBS_PER_ANONYMOUS_ADDRESS: "3",
      // The offline provider takes its time: the jobs stay queued or running.
      LOCAL_PROVIDER_STEP_MS: "60000",
    });
    const statuses: number[] = [];
    let last = "";
    for (let n = 0; n < 5; n++) {
      const answer = await start(await anonymousBrowser(server), `addr-${n}`);
      statuses.push(answer.status);
      if (answer.body.error) last = answer.body.error;
    }
    expect(statuses).toEqual([202, 202, 202, 429, 429]);
    expect(last).toMatch(
      /^Too many jobs at once from this address: at most 3 queued or running for anonymous sessions \(sign in to run more\)\./,
    );
    const account = new TestClient(server.url);
    await account.signUp("address-jobs@example.com");
    expect((await start(account, "acct")).status).toBe(202);
  });
});
