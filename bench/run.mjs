#!/usr/bin/env node
/**
 * Atelier's benchmark suite (the benchmark and performance issues): canvas (C1–C5), peers
 * (P1, litegraph in the same run), load and save (L1, L2, S1–S3), queue (Q1–Q4), server-side
 * runs (R1, R2), bundle and network (F1, F2, N1) figures, each a ratio against a baseline
 * measured in the same run or a count. Prints a table and writes bench/results/latest.json.
 *
 *   npm run bench                      the whole suite (~25 min)
 *   npm run bench -- C1,F1             some row groups (or: node bench/run.mjs --only C1,F1)
 *   npm run bench -- --quick           F1, F2 and S1 (PGlite, one pair): the CI smoke run
 *   options: --only IDS, --rounds N (pairs per figure, default 5), --no-build (reuse
 *            bench/.build/web), --out FILE (default bench/results/latest.json)
 *
 * Exit code 0 when the suite ran, whatever the figures; non-zero only when the harness broke.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { register } from "tsx/esm/api";
import { CATALOGUE, GROUPS } from "./lib/catalogue.mjs";
import { errorRow, printTable, writeResults } from "./lib/report.mjs";
import { CPUS, canPin, ROOT, stopChildren } from "./lib/server.mjs";

// The fixtures, @atelier/core and the test fakes are TypeScript.
register();

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    only: { type: "string" },
    quick: { type: "boolean", default: false },
    rounds: { type: "string" },
    "no-build": { type: "boolean", default: false },
    out: { type: "string", default: join(ROOT, "bench/results/latest.json") },
  },
});
// Through the root script (`npm run bench -- --quick`) npm takes unknown flags as its own
// config and hands them over as npm_config_* variables; group IDs arrive as positionals.
const npmFlag = (name) => process.env[`npm_config_${name}`];
options.quick ||= npmFlag("quick") === "true";
options["no-build"] ||= npmFlag("build") === "" || npmFlag("build") === "false";
options.rounds ??= /^\d+$/.test(npmFlag("rounds") ?? "") ? npmFlag("rounds") : undefined;
const requested = options.only ?? (positionals.join(",") || process.env.BENCH_ONLY);

const only = options.quick
  ? ["F1", "F2", "S1"]
  : requested
    ? requested
        .split(",")
        .map((id) => id.trim().toUpperCase())
        .filter(Boolean)
    : GROUPS;
const unknown = only.filter((id) => !GROUPS.includes(id));
if (unknown.length > 0) {
  console.error(`Unknown row group(s): ${unknown.join(", ")}. Known: ${GROUPS.join(", ")}`);
  process.exit(2);
}
const wanted = (id) => only.includes(id);
const rounds = options.quick ? 1 : Number(options.rounds ?? 5);
// BENCH_WEB_ROOT: build somewhere else (two runs from one checkout must not share a build).
const WEB_ROOT = process.env.BENCH_WEB_ROOT ?? join(ROOT, "bench/.build/web");
const started = Date.now();
const log = (message) =>
  console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}`);

// Servers and pollers are children of this process: stop them if the run is interrupted.
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    stopChildren();
    process.exit(130);
  });

// The browser, load generator and this driver on one core; servers on the other.
if (canPin()) execFileSync("taskset", ["-a", "-p", "-c", CPUS.client, String(process.pid)]);

/**
 * Runs one step; a harness failure becomes ERROR rows (for the group `id`, or only the row
 * IDs given) instead of a crash, and the suite goes on.
 */
async function guard(id, step, ctx, rowIds) {
  try {
    return await step(ctx);
  } catch (error) {
    log(`${id} failed: ${error.stack ?? error}`);
    return Object.values(CATALOGUE)
      .flat()
      .filter(([rowId]) => (rowIds ? rowIds.includes(rowId) : rowId.split("/")[0] === id))
      .map(([rowId, measure, target]) => errorRow(rowId, measure, target, error));
  }
}

/**
 * Two builds: the production one (what users get; F1 measures it) and mode "bench", a
 * production build that also answers `?fixture=N` (lazy, never in F1) for the other rows.
 */
function buildWeb(outDir, mode) {
  if (options["no-build"] && existsSync(join(outDir, "index.html"))) return;
  log(`building the web app (production${mode ? `, mode ${mode}` : ""}) into ${outDir}`);
  const result = spawnSync(
    "npx",
    [
      "vite",
      "build",
      ...(mode ? ["--mode", mode] : []),
      "--outDir",
      outDir,
      "--emptyOutDir",
      "--manifest",
      "--logLevel",
      "warn",
    ],
    { cwd: join(ROOT, "apps/web"), stdio: ["ignore", "inherit", "inherit"] },
  );
  if (result.status !== 0) throw new Error(`vite build failed (${result.status})`);
}

async function main() {
  const load = loadavg();
  buildWeb(WEB_ROOT, "bench");
  const productionRoot = `${WEB_ROOT}-production`;
  if (wanted("F1") || wanted("F2")) buildWeb(productionRoot);
  const ctx = {
    webRoot: WEB_ROOT,
    productionRoot,
    rounds,
    quick: options.quick,
    log,
    guard,
    wanted,
  };
  const { generateFixture } = await import("./fixtures/generate.ts");
  ctx.fixture = generateFixture;
  const rows = [];
  const suites = [
    [["F1"], "./suites/bundle.mjs", "runBundle"],
    [["F2", "N1"], "./suites/network.mjs", "runNetwork"],
    [["S1", "S2", "S3", "L1", "L2"], "./suites/load-save.mjs", "runLoadSave"],
    [["C1", "C2", "C3", "C4", "C5"], "./suites/canvas.mjs", "runCanvas"],
    [["P1"], "./suites/peers.mjs", "runPeers"],
    [["Q1", "Q2", "Q3"], "./suites/queue.mjs", "runQueue"],
    [["Q4"], "./suites/flood.mjs", "runFlood"],
    [["R1", "R2"], "./suites/runs.mjs", "runRuns"],
  ];
  for (const [ids, file, name] of suites) {
    if (!ids.some(wanted)) continue;
    const suite = await import(file);
    rows.push(...(await suite[name](ctx)));
  }
  // Rows in the issue's order.
  const order = GROUPS.flatMap((group) => CATALOGUE[group].map(([id]) => id));
  rows.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
  console.log("");
  printTable(rows);
  const payload = {
    startedAt: new Date(started).toISOString(),
    seconds: Math.round((Date.now() - started) / 1000),
    options: { only, quick: options.quick, rounds },
    machine: {
      cpus: cpus().length,
      cpu: cpus()[0]?.model,
      node: process.version,
      pinned: canPin() ? { server: CPUS.server, browserAndLoad: CPUS.client } : null,
      loadavgBefore: load,
      loadavgAfter: loadavg(),
      chromium: ctx.chromiumVersion ?? null,
    },
    rows,
  };
  writeResults(options.out, payload);
  const failed = rows.filter((entry) => entry.status === "FAIL").length;
  log(`${rows.length} rows, ${failed} below target; wrote ${options.out}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
