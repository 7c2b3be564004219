import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { launchBrowser } from "../lib/browser.mjs";
import { signedInPage } from "../lib/editor.mjs";
import { poll } from "../lib/poll.mjs";
import { row } from "../lib/report.mjs";
import {
  api,
  CPUS,
  freePort,
  pinned,
  postgresAvailable,
  signUp,
  startServer,
  track,
} from "../lib/server.mjs";
import { interleave, median, ratios, sleep } from "../lib/stats.mjs";

/** Q1–Q3: status polling under load, provider traffic per job, an idle tab's requests. */

const lib = (name) => fileURLToPath(new URL(`../lib/${name}`, import.meta.url));
const Q1_LOADS = [1000, 5000];

async function bareServer(answer) {
  const port = await freePort();
  const [command, args] = pinned(CPUS.server, process.execPath, [
    lib("bare-server.mjs"),
    String(port),
    answer,
  ]);
  const child = track(spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] }));
  await new Promise((resolve) => child.stdout.once("data", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** Q1: p99 of POST /api/queue/status under N pollers every 3 s ÷ the bare handler's. */
async function q1(ctx) {
  const db = (await postgresAvailable()) ? "postgres" : "pglite";
  const server = await startServer({ env: { LOCAL_PROVIDER_STEP_MS: "60000" }, db });
  const requests = [];
  for (let user = 0; user < 20; user++) {
    const { cookie } = await signUp(server.url, `q1-${user}`);
    const job = await api(server.url, cookie, "POST", "/api/generate/flux-pro", {
      nodeId: `node-${user}`,
      inputs: { prompt: "a lighthouse" },
      params: {},
    });
    requests.push({ cookie, body: JSON.stringify({ requestId: job.requestId }) });
  }
  const sample = await api(
    server.url,
    requests[0].cookie,
    "POST",
    "/api/queue/status",
    requests[0].body,
  );
  const bare = await bareServer(JSON.stringify({ ...sample, requestId: "__ID__" }));
  const run = (url, pollers, withCookies) =>
    poll({
      url,
      path: "/api/queue/status",
      pollers,
      intervalMs: 3000,
      warmupMs: 3000,
      durationMs: 6000,
      requests: withCookies ? requests : requests.map(({ body }) => ({ body })),
    });
  const rows = [];
  try {
    for (const pollers of Q1_LOADS) {
      // One unrecorded pass of each first: a cold server (JIT, caches, the jobs just started)
      // made the first round an outlier.
      await run(server.url, pollers, true);
      await run(bare.url, pollers, false);
      const runs = { base: [], cand: [] };
      const { base, cand } = await interleave({
        rounds: ctx.rounds,
        baseline: async () => {
          const result = await run(bare.url, pollers, false);
          runs.base.push(result);
          return result.p99;
        },
        candidates: {
          server: async () => {
            const result = await run(server.url, pollers, true);
            runs.cand.push(result);
            return result.p99;
          },
        },
        onRound: (round) => ctx.log(`Q1/${pollers} round ${round + 1}/${ctx.rounds}`),
      });
      const errors = runs.cand.reduce((sum, result) => sum + result.errors, 0);
      rows.push(
        row({
          id: `Q1/${pollers}`,
          measure: `status p99, ${pollers} pollers ÷ bare node:http`,
          values: ratios(cand.server, base),
          target: { op: "<=", value: 2 },
          note: `p99 ${median(cand.server).toFixed(1)} vs ${median(base).toFixed(1)} ms, ${Math.round(median(runs.cand.map((r) => r.rps)))} req/s, ${errors} errors (${db})`,
          details: { runs },
        }),
      );
    }
  } finally {
    await bare.stop();
    await server.stop();
  }
  return rows;
}

/** One server against its own fake fal; the job stays IN_PROGRESS until `seconds` pass. */
async function providerJob(seconds, webhook) {
  const { startFakeFal } = await import("../../apps/server/test/fakes/fal-server.ts");
  const fal = await startFakeFal();
  const server = await startServer({
    publicUrl: webhook,
    env: {
      FAL_KEY: fal.key,
      FAL_QUEUE_URL: fal.url,
      FAL_WEBHOOK_JWKS_URL: `${fal.url}/.well-known/jwks.json`,
      OUTBOUND_ALLOW_HOSTS: new URL(fal.url).host,
    },
  });
  try {
    const { cookie } = await signUp(server.url, "q2");
    fal.script("next", [{ status: "IN_PROGRESS", logs: [] }]);
    const job = await api(server.url, cookie, "POST", "/api/generate/flux-pro", {
      nodeId: "node-q2",
      inputs: { prompt: "a lighthouse" },
      params: {},
    });
    for (let tries = 0; tries < 100 && fal.jobs.length === 0; tries++) await sleep(100);
    const submitted = fal.jobs[0];
    if (!submitted) throw new Error("the job never reached the fake fal");
    await sleep(seconds * 1000);
    fal.script(submitted.requestId, [{ status: "COMPLETED" }]);
    if (webhook && submitted.webhookUrl)
      await fal.sendWebhook({ url: submitted.webhookUrl, requestId: submitted.requestId });
    let status = "";
    for (let tries = 0; tries < 60 && status !== "COMPLETED"; tries++) {
      await sleep(500);
      ({ status } = await api(server.url, cookie, "POST", "/api/queue/status", {
        requestId: job.requestId,
      }));
    }
    return {
      status,
      statusRequests: fal.counters.status[submitted.requestId] ?? 0,
      streams: fal.counters.streams,
      webhookUrl: Boolean(submitted.webhookUrl),
    };
  } finally {
    await server.stop();
    await fal.close();
  }
}

/** Q2: requests to the provider about one 60 s job, with webhooks and with polling only. */
async function q2(ctx) {
  const seconds = ctx.q2Seconds ?? 60;
  const [hooked, polled] = await Promise.all([
    providerJob(seconds, true),
    providerJob(seconds, false),
  ]);
  const note = (result) =>
    `${result.statusRequests} status polls + ${result.streams} streams over a ${seconds} s job; ended ${result.status}${result.webhookUrl ? ", webhook URL sent" : ""}`;
  return [
    row({
      id: "Q2/webhook",
      measure: "provider status requests per 60 s job, webhook",
      values: [hooked.statusRequests + hooked.streams],
      target: { op: "<=", value: 1 },
      unit: "",
      note: note(hooked),
      details: hooked,
    }),
    row({
      id: "Q2/polling",
      measure: "provider status requests per 60 s job, polling",
      values: [polled.statusRequests + polled.streams],
      target: { op: "<=", value: 8 },
      unit: "",
      note: note(polled),
      details: polled,
    }),
  ];
}

/** Q3: every request an idle signed-in tab makes in 60 s while 20 nodes run. */
async function q3(ctx) {
  const server = await startServer({
    webRoot: ctx.webRoot,
    env: { LOCAL_PROVIDER_STEP_MS: "60000" },
  });
  const browser = await launchBrowser();
  try {
    const session = await signedInPage(browser, server, "q3");
    const { page } = session;
    const nodes = Array.from({ length: 20 }, (_, index) => ({
      id: `q${index}`,
      type: "flux-pro",
      position: { x: (index % 5) * 420, y: Math.floor(index / 5) * 420 },
      data: {
        label: `Image ${index}`,
        inputValues: { prompt: { value: `a lighthouse ${index}` } },
      },
    }));
    const file = {
      version: "1.0.0",
      timestamp: Date.now(),
      nodes,
      edges: [],
      metadata: { name: "Q3" },
    };
    await page.getByLabel("Import a workflow file").setInputFiles({
      name: "q3.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(file)),
    });
    await page.waitForSelector(".react-flow__node");
    await page.keyboard.press("Control+s");
    await page
      .getByRole("status")
      .filter({ hasText: /^Saved$/ })
      .waitFor({ timeout: 30_000 });
    let started = 0;
    const streams = new Set();
    page.on("request", (request) => {
      if (request.url().includes("/api/generate/")) started++;
      if (request.url().endsWith("/events")) streams.add(new URL(request.url()).pathname);
    });
    await page.getByRole("button", { name: "Run all" }).click();
    for (let tries = 0; tries < 120 && started < 20; tries++) await sleep(250);
    await sleep(5000);
    const seen = [];
    const onRequest = (request) =>
      seen.push(`${request.method()} ${new URL(request.url()).pathname}`);
    page.on("request", onRequest);
    await sleep(60_000);
    page.off("request", onRequest);
    const running = await page.locator(".react-flow__node .status-processing").count();
    await session.close();
    const byPath = {};
    for (const entry of seen) byPath[entry] = (byPath[entry] ?? 0) + 1;
    return [
      row({
        id: "Q3",
        measure: "browser requests/min, idle tab, 20 running nodes",
        values: [seen.length],
        target: { op: "<=", value: 4 },
        unit: "",
        note: `${started} runs started, ${running} drawn nodes Running at the end; event streams held open from before: ${[...streams].join(", ") || "none"}; in the minute: ${
          Object.entries(byPath)
            .map(([path, count]) => `${count}× ${path}`)
            .join(", ") || "no requests"
        }`,
        details: { byPath },
      }),
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}

export async function runQueue(ctx) {
  const rows = [];
  // Q2 and Q3 mostly wait (one minute each): they run side by side.
  const waits = [];
  if (ctx.wanted("Q2")) waits.push(ctx.guard("Q2", q2, ctx));
  if (ctx.wanted("Q3")) waits.push(ctx.guard("Q3", q3, ctx));
  if (waits.length) ctx.log(`${["Q2", "Q3"].filter(ctx.wanted).join(" and ")} (about 70 s)…`);
  for (const result of await Promise.all(waits)) rows.push(...result);
  if (ctx.wanted("Q1")) {
    ctx.log("Q1…");
    rows.push(...(await ctx.guard("Q1", q1, ctx)));
  }
  return rows;
}
