import { launchBrowser, openPage } from "../lib/browser.mjs";
import {
  coverageProblem,
  dragTarget,
  fixtureCoverage,
  openFixture,
  timedDrag,
} from "../lib/canvas-driver.mjs";
import { litegraphDrag, openLitegraph, startLitegraphServer } from "../lib/litegraph-page.mjs";
import { notMeasurable, row } from "../lib/report.mjs";
import { startServer } from "../lib/server.mjs";
import { interleave, median, ratios } from "../lib/stats.mjs";

/**
 * P1: Atelier against litegraph (ComfyUI's canvas) in the same run. Each engine's drag
 * ratio is FPS with N nodes all in view ÷ FPS with 1 node (C1's drag); the figure is
 * Atelier's ratio ÷ litegraph's, per round, with every drag of a round interleaved.
 */

const SIZES = [1000, 2000, 10000];
const TARGETS = { 1000: 1.6, 2000: 3, 10000: 10 };

/** An Atelier `?fixture=N` page, and whether it shows that graph with nearly all in view. */
async function atelierPage(ctx, count) {
  const opened = await openPage(ctx.browser);
  const shown = await openFixture(opened.page, ctx.url, count);
  const coverage = await fixtureCoverage(opened.page, ctx.fixture(count).nodes);
  const problem = coverageProblem(coverage, count);
  return { ...opened, ...shown, coverage, problem, target: dragTarget(ctx.fixture, count) };
}

async function p1(ctx) {
  const atelier = { 1: await atelierPage(ctx, 1) };
  const lite = { 1: await openLitegraph(ctx.browser, ctx.liteUrl, ctx.fixture, 1) };
  for (const size of SIZES) {
    ctx.log(`P1: opening ${size} nodes in Atelier and litegraph`);
    atelier[size] = await atelierPage(ctx, size);
    lite[size] = await openLitegraph(ctx.browser, ctx.liteUrl, ctx.fixture, size);
  }
  const dragA = (size) => async () =>
    (await timedDrag(atelier[size].page, atelier[size].target.id)).fps;
  const dragL = (size) => async () =>
    (await litegraphDrag(lite[size].page, dragTarget(ctx.fixture, size).id)).fps;
  const candidates = { "lite/1": dragL(1) };
  for (const size of SIZES) {
    // A page showing another graph has no node to drag: its row says so instead.
    if (!atelier[size].problem?.wrongGraph) candidates[`atelier/${size}`] = dragA(size);
    candidates[`lite/${size}`] = dragL(size);
  }
  const { base, cand } = await interleave({
    rounds: ctx.rounds,
    baseline: dragA(1),
    candidates,
    onRound: (round) => ctx.log(`P1 round ${round + 1}/${ctx.rounds}`),
  });
  const rows = SIZES.map((size) => {
    const id = `P1/${size}`;
    const measure = `drag ratio Atelier ÷ litegraph, ${size} nodes`;
    const liteRatios = ratios(cand[`lite/${size}`], cand["lite/1"]);
    const liteText = `litegraph ${median(liteRatios).toFixed(2)} (${median(cand[`lite/${size}`]).toFixed(1)} vs ${median(cand["lite/1"]).toFixed(0)} fps, scale ${lite[size].scale.toFixed(3)}, ${lite[size].links} links)`;
    const page = atelier[size];
    const atelierFps = cand[`atelier/${size}`];
    const atelierRatios = atelierFps ? ratios(atelierFps, base) : [];
    const atelierText = atelierFps
      ? `Atelier ${median(atelierRatios).toFixed(2)} (${median(atelierFps).toFixed(1)} vs ${median(base).toFixed(0)} fps, ${page.coverage.drawn} drawn, zoom ${page.coverage.zoom.toFixed(3)})`
      : "Atelier not dragged";
    const details = {
      atelier: {
        fps: atelierFps ?? null,
        baselineFps: base,
        ratios: atelierRatios,
        ...page.coverage,
      },
      litegraph: {
        fps: cand[`lite/${size}`],
        baselineFps: cand["lite/1"],
        ratios: liteRatios,
        scale: lite[size].scale,
        links: lite[size].links,
        linksMoved: lite[size].moved,
        inView: lite[size].inView,
      },
    };
    if (page.problem)
      return {
        ...notMeasurable(id, measure, `≥ ${TARGETS[size]}`, page.problem.text),
        note: `not measurable yet: ${page.problem.text}; ${atelierText}; ${liteText}`,
        details,
      };
    return row({
      id,
      measure,
      values: ratios(atelierRatios, liteRatios),
      target: { op: ">=", value: TARGETS[size] },
      note: `${atelierText}; ${liteText}`,
      details,
    });
  });
  for (const entry of [...Object.values(atelier), ...Object.values(lite)]) await entry.close();
  return rows;
}

/** One Atelier server (the bench build), one litegraph page server, one browser. */
export async function runPeers(ctx) {
  const server = await startServer({ webRoot: ctx.webRoot });
  const lite = await startLitegraphServer();
  const browser = await launchBrowser();
  ctx.chromiumVersion = browser.version();
  try {
    ctx.log("P1…");
    return await ctx.guard("P1", p1, { ...ctx, url: server.url, liteUrl: lite.url, browser });
  } finally {
    await browser.close();
    await server.stop();
    await lite.stop();
  }
}
