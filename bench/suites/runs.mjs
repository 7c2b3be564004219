import { join } from "node:path";
import pg from "pg";
import { poll } from "../lib/poll.mjs";
import { notMeasurable, row } from "../lib/report.mjs";
import { api, postgresAvailable, signUp, startServer } from "../lib/server.mjs";
import { interleave, median, quantile, ratios, sleep } from "../lib/stats.mjs";

/**
 * R1–R2: server-side runs (`POST /api/runs`, driven by the all-in-one server's in-process
 * run driver). R1: orchestration time per node of a 100-node run whose jobs are instant;
 * R2: Q1's status probe while 50 users run a 10-node workflow each, against the same probe
 * on the same server with nothing running.
 */

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/**
 * A device-only graph: one text node feeding `chains` chains of `length` steps each — a
 * flux-pro image, then `length − 1` upscalers (scale 1) each taking the previous image. Every
 * step but the first of a chain waits for its feeder, and the chains compete for the user's
 * 4 parallel slots, so a run exercises both dependency waits and parallelism. The text node
 * is no step: `chains × length` steps.
 */
export function chainsGraph({ chains, length, tag }) {
  const node = (id, type, x, y, values = {}) => ({
    id,
    type,
    position: { x, y },
    data: {
      label: id,
      inputValues: Object.fromEntries(Object.entries(values).map(([k, value]) => [k, { value }])),
    },
  });
  const wire = (source, sourceHandle, target, targetHandle) => ({
    id: `${source}-${target}`,
    source,
    sourceHandle,
    target,
    targetHandle,
  });
  const nodes = [node("text", "text", 0, 0, { text: `a lighthouse at dusk, ${tag}` })];
  const edges = [];
  for (let chain = 0; chain < chains; chain++) {
    let previous = null;
    for (let step = 0; step < length; step++) {
      const id = `c${chain}s${step}`;
      const at = [400 * (step + 1), 400 * chain];
      if (step === 0) {
        nodes.push(node(id, "flux-pro", ...at, { numImages: 1 }));
        edges.push(wire("text", "text", id, "prompt"));
      } else {
        nodes.push(node(id, "upscaler", ...at, { upscaleFactor: 1 }));
        edges.push(wire(previous, "image", id, "image"));
      }
      previous = id;
    }
  }
  return { nodes, edges };
}

/** POSTs a run and polls `GET /api/runs/:id` until it ends; client times in epoch ms. */
async function runToEnd(url, cookie, graph, { pollMs = 100, timeoutMs = 300_000 } = {}) {
  const postedAt = Date.now();
  const started = await api(url, cookie, "POST", "/api/runs", { graph });
  const answeredAt = Date.now();
  const id = started.run.id;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { run } = await api(url, cookie, "GET", `/api/runs/${id}`);
    if (TERMINAL.has(run.status)) return { postedAt, answeredAt, seenAt: Date.now(), run };
    if (Date.now() > deadline)
      throw new Error(`run ${id} still ${run.status} after ${timeoutMs} ms`);
    await sleep(pollMs);
  }
}

const ms = (iso) => (iso ? Date.parse(iso) : Number.NaN);

/** Total length of the union of [start, end] intervals. */
function unionLength(intervals) {
  const sorted = intervals
    .filter(([start, end]) => Number.isFinite(start) && Number.isFinite(end) && end >= start)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let from = Number.NEGATIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const [start, end] of sorted) {
    if (start > to) {
      if (to > from) total += to - from;
      from = start;
      to = end;
    } else to = Math.max(to, end);
  }
  if (to > from) total += to - from;
  return total;
}

/**
 * R1's figure for one run: (wall − time in which at least one step's job was executing) ÷
 * steps. Wall = run completedAt − the client's POST. A step executes from the run node's
 * startedAt (set when the driver starts its job) to its completedAt (the job's own end, as
 * the driver records it) — the API shows no job timings. `jobs` (from the database, when
 * read) splits each step into the job's queue pickup and its own execution.
 */
function analyse({ postedAt, answeredAt, run }, graph, jobs) {
  const nodes = run.nodes;
  const wall = ms(run.completedAt) - postedAt;
  const busy = unionLength(nodes.map((node) => [ms(node.startedAt), ms(node.completedAt)]));
  const out = {
    steps: nodes.length,
    status: run.status,
    failed: nodes.filter((node) => node.status !== "completed").length,
    wallMs: wall,
    postMs: answeredAt - postedAt,
    busyMs: busy,
    overheadPerNodeMs: (wall - busy) / nodes.length,
  };
  // Dependency wait: a step's start after its feeder's end (first steps: after the run's
  // creation), and the last step's end to the run's end.
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const feeder = new Map(graph.edges.map((edge) => [edge.target, edge.source]));
  const waits = nodes.map((node) => {
    const from = byId.get(feeder.get(node.id));
    return ms(node.startedAt) - (from ? ms(from.completedAt) : ms(run.createdAt));
  });
  out.startAfterReadyMedianMs = median(waits);
  out.startAfterReadyP90Ms = quantile(waits, 0.9);
  out.firstStartMs = Math.min(...nodes.map((node) => ms(node.startedAt))) - postedAt;
  out.lastEndToRunEndMs =
    ms(run.completedAt) - Math.max(...nodes.map((node) => ms(node.completedAt)));
  out.stepMedianMs = median(nodes.map((node) => ms(node.completedAt) - ms(node.startedAt)));
  // The driver's reaction: from a step's end to the next step start (a slot refilled).
  const starts = nodes.map((node) => ms(node.startedAt)).sort((a, b) => a - b);
  const refills = nodes
    .map((node) => ms(node.completedAt))
    .map((end) => (starts.find((start) => start >= end) ?? Number.NaN) - end)
    .filter(Number.isFinite);
  out.refillMedianMs = median(refills);
  out.refillP90Ms = quantile(refills, 0.9);
  if (jobs) {
    const pickups = [];
    const own = [];
    const executing = [];
    for (const node of nodes) {
      const job = jobs.get(node.requestId);
      if (!job?.started_at || !job.completed_at) continue;
      pickups.push(new Date(job.started_at) - ms(node.startedAt));
      own.push(new Date(job.completed_at) - new Date(job.started_at));
      executing.push([new Date(job.started_at).getTime(), new Date(job.completed_at).getTime()]);
    }
    // Strict: only the job's own execution (submitted → completed) counts as job time.
    out.jobPickupMedianMs = median(pickups);
    out.jobPickupP90Ms = quantile(pickups, 0.9);
    out.jobOwnMedianMs = median(own);
    out.strictOverheadPerNodeMs =
      executing.length === nodes.length
        ? (wall - unionLength(executing)) / nodes.length
        : Number.NaN;
  }
  out.figure = Number.isFinite(out.strictOverheadPerNodeMs)
    ? out.strictOverheadPerNodeMs
    : out.overheadPerNodeMs;
  return out;
}

/** The jobs rows (created/started/completed) of the given ids, from the server's database. */
async function readJobs(query, ids) {
  const { rows } = await query(
    "select id, created_at, started_at, completed_at from jobs where id = any($1)",
    [ids],
  );
  return new Map(rows.map((job) => [job.id, job]));
}

async function postgresJobs(server, ids) {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    return await readJobs((sql, params) => client.query(sql, params), ids);
  } finally {
    await client.end();
  }
}

/** PGlite is one process's: stop the server first, then open its data directory. */
async function pgliteJobs(server, ids) {
  process.kill(server.pid, "SIGTERM");
  for (let tries = 0; tries < 200; tries++) {
    try {
      process.kill(server.pid, 0);
    } catch {
      break;
    }
    await sleep(100);
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(join(server.dataDir, "db"));
  try {
    return await readJobs((sql, params) => db.query(sql, params), ids);
  } finally {
    await db.close();
  }
}

const R1_STEPS = { chains: 10, length: 10 };

/** R1 on one database: a warm-up run, then `rounds` 100-step runs, one after another. */
async function r1On(ctx, db) {
  const server = await startServer({
    db,
    env: { LOCAL_PROVIDER_STEP_MS: "0", RATE_LIMIT_GENERATIONS_PER_MINUTE: "100000" },
  });
  let stopped = false;
  try {
    const { cookie } = await signUp(server.url, `r1-${db}`);
    const results = [];
    for (let round = -1; round < ctx.rounds; round++) {
      const graph = chainsGraph({ ...R1_STEPS, tag: `${db} ${round}` });
      const result = await runToEnd(server.url, cookie, graph);
      if (result.run.status !== "completed") throw new Error(`R1 run ended ${result.run.status}`);
      // The first run is unrecorded: a cold server (JIT, prepared statements).
      if (round >= 0) results.push({ ...result, graph });
      if (round >= 0) ctx.log(`R1/${db} round ${round + 1}/${ctx.rounds}`);
    }
    const ids = results.flatMap(({ run }) => run.nodes.map((node) => node.requestId));
    let jobs = null;
    try {
      jobs = db === "postgres" ? await postgresJobs(server, ids) : await pgliteJobs(server, ids);
      stopped = db !== "postgres";
    } catch (error) {
      ctx.log(`R1/${db}: job rows not read (${error.message})`);
    }
    return results.map((result) => analyse(result, result.graph, jobs));
  } finally {
    if (!stopped) await server.stop();
    else await server.stop().catch(() => undefined);
  }
}

const fmt = (value) => (Number.isFinite(value) ? value.toFixed(1) : "?");

function r1Row(db, analyses) {
  const id = `R1/${db}`;
  const measure = `orchestration per node, 100-step run of instant jobs (${db === "pglite" ? "PGlite" : "PostgreSQL"})`;
  const pick = (key) => median(analyses.map((entry) => entry[key]));
  const strict = analyses.some((entry) => Number.isFinite(entry.strictOverheadPerNodeMs));
  return row({
    id,
    measure,
    values: analyses.map((entry) => entry.figure),
    target: { op: "<=", value: 20 },
    unit: "ms",
    note:
      `text → 10 chains × (flux-pro + 9 upscalers ×1), LOCAL_PROVIDER_STEP_MS=0, 4 slots; ` +
      (strict
        ? "(wall − time in which ≥ 1 job was executing, job submitted → completed from the jobs rows) ÷ 100"
        : "(wall − time in which ≥ 1 step ran, node startedAt → completedAt; jobs rows not read) ÷ 100") +
      `; wall ${fmt(pick("wallMs"))} ms (POST → run completedAt; POST answered in ${fmt(pick("postMs"))}); ` +
      (strict
        ? `per step: queue pickup (step started → job submitted) median ${fmt(pick("jobPickupMedianMs"))}, p90 ${fmt(pick("jobPickupP90Ms"))} ms, job's own run median ${fmt(pick("jobOwnMedianMs"))} ms; `
        : "") +
      `a slot refilled ${fmt(pick("refillMedianMs"))} ms (p90 ${fmt(pick("refillP90Ms"))}) after a step's end; ` +
      `first step started ${fmt(pick("firstStartMs"))} ms after POST, run ended ${fmt(pick("lastEndToRunEndMs"))} ms after its last step; ` +
      `counting the node intervals (pickup included) as job time instead: ${fmt(pick("overheadPerNodeMs"))} ms/node`,
    details: { analyses },
  });
}

/** R1: orchestration overhead per node, on PGlite and on PostgreSQL. */
async function r1(ctx) {
  const rows = [];
  for (const db of ["pglite", "postgres"]) {
    if (db === "postgres" && !(await postgresAvailable())) {
      rows.push(
        notMeasurable(
          "R1/postgres",
          "orchestration per node, 100-step run of instant jobs (PostgreSQL)",
          "≤ 20",
          "no PostgreSQL at TEST_DATABASE_URL",
        ),
      );
      continue;
    }
    ctx.log(`R1/${db}…`);
    rows.push(
      ...(await ctx.guard(`R1`, async () => [r1Row(db, await r1On(ctx, db))], ctx, [`R1/${db}`])),
    );
  }
  return rows;
}

const R2_USERS = 50;
const R2_STEPS = { chains: 2, length: 5 };
const R2_STEP_MS = 0;
const R2_POLLERS = 1000;
const PROBE = { warmupMs: 3000, durationMs: 6000 };

/**
 * R2: Q1's probe (1,000 pollers of `POST /api/queue/status`, every 3 s after the answer, over
 * 20 users' jobs) while 50 other users each run a 10-step workflow, ÷ the same probe on the
 * same server with no run going; interleaved, idle first.
 */
async function r2(ctx) {
  const db = (await postgresAvailable()) ? "postgres" : "pglite";
  const server = await startServer({
    db,
    env: {
      LOCAL_PROVIDER_STEP_MS: String(R2_STEP_MS),
      RATE_LIMIT_GENERATIONS_PER_MINUTE: "100000",
    },
  });
  try {
    // Q1's probe: 20 users with one job each, the pollers spread over them.
    const requests = [];
    for (let user = 0; user < 20; user++) {
      const { cookie } = await signUp(server.url, `r2-probe-${user}`);
      const job = await api(server.url, cookie, "POST", "/api/generate/flux-pro", {
        nodeId: `node-${user}`,
        inputs: { prompt: "a lighthouse" },
        params: {},
      });
      requests.push({ cookie, body: JSON.stringify({ requestId: job.requestId }) });
    }
    const runners = [];
    for (let user = 0; user < R2_USERS; user++)
      runners.push((await signUp(server.url, `r2-run-${user}`)).cookie);
    const probe = () =>
      poll({
        url: server.url,
        path: "/api/queue/status",
        pollers: R2_POLLERS,
        intervalMs: 3000,
        ...PROBE,
        requests,
      });
    // The probe's jobs finish first (their answers are then stable, loaded or not).
    await sleep(R2_STEP_MS * 8 + 3000);
    const loads = [];
    const loaded = async (round) => {
      const measuring = probe();
      // The runs start 2 s into the probe's 3 s warm-up, all at once.
      await sleep(PROBE.warmupMs - 1000);
      const startedAt = Date.now();
      const posted = await Promise.all(
        runners.map((cookie, user) =>
          api(server.url, cookie, "POST", "/api/runs", {
            graph: chainsGraph({ ...R2_STEPS, tag: `r2 ${round} ${user}` }),
          }).then(({ run }) => ({ cookie, id: run.id })),
        ),
      );
      const postMs = Date.now() - startedAt;
      const result = await measuring;
      // What the window saw, then the rest is cancelled (at the server's pace the 500 steps
      // take about a minute), and the next idle pass waits until every run has ended.
      const seen = await Promise.all(
        posted.map(({ cookie, id }) => api(server.url, cookie, "GET", `/api/runs/${id}`)),
      );
      const stepsDone = seen.reduce(
        (sum, { run }) => sum + run.nodes.filter((node) => node.status === "completed").length,
        0,
      );
      const runsDone = seen.filter(({ run }) => run.status === "completed").length;
      const windowMs = Date.now() - startedAt;
      await Promise.all(
        posted.map(({ cookie, id }) =>
          api(server.url, cookie, "POST", `/api/runs/${id}/cancel`).catch(() => undefined),
        ),
      );
      for (let tries = 0; tries < 600; tries++) {
        const states = await Promise.all(
          posted.map(({ cookie, id }) => api(server.url, cookie, "GET", `/api/runs/${id}`)),
        );
        if (states.every(({ run }) => TERMINAL.has(run.status))) break;
        await sleep(250);
      }
      await sleep(1000);
      loads.push({ probe: result, postMs, stepsDone, runsDone, windowMs });
      return result.p99;
    };
    const idles = [];
    const idle = async () => {
      const result = await probe();
      idles.push(result);
      return result.p99;
    };
    // One unrecorded idle pass: a cold server made the first round an outlier (Q1).
    await probe();
    const { base, cand } = await interleave({
      rounds: ctx.rounds,
      baseline: idle,
      candidates: { loaded },
      onRound: (round) => ctx.log(`R2 round ${round + 1}/${ctx.rounds}`),
    });
    const errors = [...idles, ...loads.map((entry) => entry.probe)].reduce(
      (sum, result) => sum + result.errors,
      0,
    );
    return [
      row({
        id: "R2",
        measure: "status p99 while 50 users run 10-step workflows ÷ idle",
        values: ratios(cand.loaded, base),
        target: { op: "<=", value: 1.5 },
        note:
          `Q1's probe (${R2_POLLERS} pollers / 3 s, 20 jobs): p99 ${fmt(median(cand.loaded))} vs ${fmt(median(base))} ms idle, p50 ${fmt(median(loads.map((entry) => entry.probe.p50)))} vs ${fmt(median(idles.map((entry) => entry.p50)))} ms; ` +
          `50 users each POST a run of text → 2 × (flux-pro + 4 upscalers ×1), LOCAL_PROVIDER_STEP_MS=${R2_STEP_MS}, 1 s before the 6 s window (all 50 POSTs answered in ${fmt(median(loads.map((entry) => entry.postMs)))} ms); ` +
          `${fmt(median(loads.map((entry) => entry.stepsDone)))} of 500 steps and ${median(loads.map((entry) => entry.runsDone))} runs done ${fmt(median(loads.map((entry) => entry.windowMs)) / 1000)} s after the POSTs (the rest then cancelled); ${errors} probe errors (${db})`,
        details: { idles, loads },
      }),
    ];
  } finally {
    await server.stop();
  }
}

export async function runRuns(ctx) {
  const rows = [];
  if (ctx.wanted("R1")) rows.push(...(await r1(ctx)));
  if (ctx.wanted("R2")) {
    ctx.log("R2…");
    rows.push(...(await ctx.guard("R2", r2, ctx)));
  }
  return rows;
}
