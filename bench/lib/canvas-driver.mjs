import { resetCounters, settle, startFrames, stopFrames, zoomOf } from "./browser.mjs";
import { sleep } from "./stats.mjs";

/**
 * Driving the canvas like a user: open a generated graph, find a node, drag it along a
 * fixed closed path (so the graph is unchanged afterwards and every drag is the same).
 */

/** Opens `?fixture=N` and waits until the nodes are drawn, fitted and the page is quiet. */
export async function openFixture(page, url, count, { debug = false } = {}) {
  await page.goto(`${url}/?fixture=${count}${debug ? "&debug=renders" : ""}`);
  await page.waitForSelector(".react-flow__node", { timeout: 60_000 });
  // The editor fits the view once every node has reached React Flow (in steps, one a
  // frame: seconds for 10,000), and marks the page; then the zoom must stop changing.
  await page.waitForSelector("html[data-fixture=fitted]", { timeout: 60_000, state: "attached" });
  let last = Number.NaN;
  for (let tries = 0; tries < 50; tries++) {
    await sleep(150);
    const zoom = await zoomOf(page);
    if (zoom === last) break;
    last = zoom;
  }
  await settle(page, 800);
  return { zoom: last, drawn: await page.locator(".react-flow__node").count() };
}

/** Where to grab a node: its header when it shows one (full card), else its middle. */
export async function grabPoint(page, id) {
  const node = page.locator(`.react-flow__node[data-id="${id}"]`);
  const header = node.locator(".node-header");
  const box = (await header.count()) > 0 ? await header.boundingBox() : await node.boundingBox();
  if (!box) throw new Error(`node ${id} is not on screen`);
  const x = box.x + Math.min(box.width / 2, 24);
  return { x: (await header.count()) > 0 ? x : box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** A figure-eight of 120 × 60 px around the start, twice in `ms`; ends where it began. */
export const pathAt = (start, t, ms) => {
  const phase = (2 * Math.PI * 2 * t) / ms;
  return { x: start.x + 120 * Math.sin(phase), y: start.y + 60 * Math.sin(2 * phase) };
};

/** Counts style changes of the dragged node, to prove the drag moved it. */
const watchNode = (page, id) =>
  page.evaluate((nodeId) => {
    const element = document.querySelector(`.react-flow__node[data-id="${nodeId}"]`);
    window.__bench.moves = 0;
    const observer = new MutationObserver(() => window.__bench.moves++);
    observer.observe(element, { attributes: true, attributeFilter: ["style"] });
    window.__bench.stopWatch = () => observer.disconnect();
  }, id);
const unwatchNode = (page) =>
  page.evaluate(() => {
    window.__bench.stopWatch?.();
    return window.__bench.moves;
  });

/**
 * Drags node `id` along the path for `ms` like a 125 Hz mouse: moves are sent every 8 ms
 * without waiting for the page (Chromium coalesces them per frame, as with a real mouse).
 * Answers the page's frame rate over the drag and how often the node moved.
 */
export async function timedDrag(page, id, ms = 3000) {
  const start = await grabPoint(page, id);
  return pathDrag(page, start, {
    label: id,
    watch: () => watchNode(page, id),
    unwatch: () => unwatchNode(page),
    ms,
  });
}

/**
 * The drag itself, for any canvas: presses at `start`, follows the figure-eight for `ms`
 * with a move every 8 ms, releases where it began. `watch`/`unwatch` count how often the
 * dragged thing moved (fewer than 5 moves is an error: the drag missed it).
 */
let drags = 0;

export async function pathDrag(page, start, { label, watch, unwatch, ms = 3000 }) {
  const cdp = await page.context().newCDPSession(page);
  const send = (type, at) =>
    cdp.send("Input.dispatchMouseEvent", {
      type,
      x: at.x,
      y: at.y,
      button: "left",
      buttons: type === "mouseReleased" ? 0 : 1,
      clickCount: type === "mouseMoved" ? 0 : 1,
    });
  await page.mouse.move(start.x, start.y);
  await watch();
  const profiling = process.env.BENCH_PROFILE_DIR && !process.env.BENCH_TRACE;
  const tracing = process.env.BENCH_PROFILE_DIR && process.env.BENCH_TRACE;
  if (profiling) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.start");
  }
  if (tracing)
    await page
      .context()
      .browser()
      .startTracing(page, {
        categories: ["devtools.timeline", "disabled-by-default-devtools.timeline"],
      });
  await startFrames(page);
  await send("mousePressed", start);
  const began = Date.now();
  let sent = 0;
  const pending = [];
  for (let t = 0; t < ms; t = Date.now() - began) {
    pending.push(send("mouseMoved", pathAt(start, t, ms)).catch(() => undefined));
    sent++;
    await sleep(8);
  }
  await Promise.all(pending);
  await send("mouseMoved", start);
  await send("mouseReleased", start);
  const { frames, ms: elapsed } = await stopFrames(page);
  const moves = await unwatch();
  // BENCH_PROFILE_DIR: a CPU profile of each drag (`drag-N-<label>.cpuprofile`), or with
  // BENCH_TRACE a Chromium trace (`drag-N-<label>.json`).
  if (tracing) {
    const trace = await page.context().browser().stopTracing();
    const { mkdir, writeFile } = await import("node:fs/promises");
    await mkdir(process.env.BENCH_PROFILE_DIR, { recursive: true });
    await writeFile(`${process.env.BENCH_PROFILE_DIR}/drag-${++drags}-${label}.json`, trace);
  }
  if (profiling) {
    const { profile } = await cdp.send("Profiler.stop");
    const { mkdir, writeFile } = await import("node:fs/promises");
    const dir = process.env.BENCH_PROFILE_DIR;
    await mkdir(dir, { recursive: true });
    await writeFile(`${dir}/drag-${++drags}-${label}.cpuprofile`, JSON.stringify(profile));
  }
  await cdp.detach();
  // 5 moves, or half the frames when a very slow page drew fewer than 10 in the drag.
  if (moves < Math.max(1, Math.min(5, Math.ceil(frames / 2))))
    throw new Error(`dragging ${label} did not move it (${moves} moves in ${frames} frames)`);
  return { fps: (frames * 1000) / elapsed, frames, elapsed, moves, sent };
}

/**
 * A drag of `steps` mouse moves, one per animation frame, for per-frame counts: answers the
 * page's counters over the drag (renders, commits, long tasks) and the number of frames.
 */
export async function framedDrag(page, id, steps = 90) {
  const start = await grabPoint(page, id);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  // The first few moves start the drag (threshold, selection): not part of the count.
  for (let step = 1; step <= 3; step++) await page.mouse.move(start.x + step * 2, start.y);
  await settle(page, 300, 3000);
  await resetCounters(page);
  await watchNode(page, id);
  const frame = () => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  for (let step = 0; step < steps; step++) {
    const at = pathAt(start, (step / steps) * 3000, 3000);
    await page.mouse.move(at.x + 6, at.y);
    await frame();
  }
  const counters = await page.evaluate(() => JSON.parse(JSON.stringify(window.__bench)));
  const moves = await unwatchNode(page);
  await page.mouse.move(start.x, start.y);
  await page.mouse.up();
  return { ...counters, steps, moves };
}

/** Zooms with the wheel over `point` until the canvas zoom is within 3 % of `target`. */
export async function zoomTo(page, point, target) {
  await page.mouse.move(point.x, point.y);
  for (let tries = 0; tries < 80; tries++) {
    const zoom = await zoomOf(page);
    if (Math.abs(zoom / target - 1) < 0.03) break;
    const factor = Math.log2(target / zoom);
    // d3-zoom: one wheel unit is 2^(-deltaY × 0.002); stay below one doubling per step.
    const delta = Math.max(-300, Math.min(300, -factor / 0.002));
    await page.mouse.wheel(0, Math.abs(delta) < 5 ? Math.sign(delta) * 5 : delta);
    await sleep(60);
  }
  await settle(page, 500);
  return zoomOf(page);
}

export const drawnNodes = (page) => page.locator(".react-flow__node").count();

/** The node nearest the middle of the generated graph that has the most wires. */
export function dragTarget(fixture, count) {
  if (count === 1) return { id: "n0", edges: 0 };
  const { edges } = fixture(count);
  const degree = new Map();
  for (const edge of edges)
    for (const end of [edge.source, edge.target]) degree.set(end, (degree.get(end) ?? 0) + 1);
  let best = { id: `n${Math.floor(count / 2)}`, edges: 0 };
  for (let offset = 0; offset < 40; offset++) {
    const id = `n${Math.floor(count / 2) + offset}`;
    if ((degree.get(id) ?? 0) > best.edges) best = { id, edges: degree.get(id) };
  }
  return best;
}

/**
 * Whether the page shows the generated graph `nodes` (React Flow nodes at the fixture's
 * positions) and how much of it is in view: `wrong` counts drawn nodes that are not where
 * the fixture puts them (the app opened another graph, e.g. a capped `?fixture=N`);
 * `inView` counts fixture nodes whose top-left corner is inside the canvas at this zoom.
 */
export async function fixtureCoverage(page, nodes) {
  const seen = await page.evaluate(() => {
    const transform = document.querySelector(".react-flow__viewport")?.style.transform ?? "";
    const numbers = (text) => (text.match(/-?\d[\d.]*(?:e-?\d+)?/g) ?? []).map(Number);
    const box = document.querySelector(".react-flow")?.getBoundingClientRect();
    return {
      view: numbers(transform),
      size: box ? [box.width, box.height] : [0, 0],
      drawn: [...document.querySelectorAll(".react-flow__node")].map((element) => [
        element.getAttribute("data-id"),
        ...numbers(element.style.transform),
      ]),
    };
  });
  const [tx = 0, ty = 0, zoom = 1] = seen.view;
  const byId = new Map(nodes.map((node) => [node.id, node.position]));
  const wrong = seen.drawn.filter(([id, x, y]) => {
    const at = byId.get(id);
    return !at || Math.abs(at.x - x) > 1 || Math.abs(at.y - y) > 1;
  }).length;
  const inView = nodes.filter(({ position: { x, y } }) => {
    const [sx, sy] = [x * zoom + tx, y * zoom + ty];
    return sx >= 0 && sy >= 0 && sx <= seen.size[0] && sy <= seen.size[1];
  }).length;
  return { drawn: seen.drawn.length, wrong, inView, zoom };
}

/**
 * Why a `?fixture=N` page cannot stand for the N-node graph, or null: another graph opened
 * (`wrong`, nothing to drag). Fitted as far as the canvas' minZoom (0.05) goes, part of a
 * graph of thousands stays outside the view, as in C1/2000; the rows' notes say how much.
 */
export function coverageProblem(coverage, count) {
  if (coverage.wrong > 0 || coverage.drawn === 0)
    return {
      wrongGraph: true,
      text: `the page did not open the ${count}-node fixture (${coverage.wrong} of ${coverage.drawn} drawn nodes are not where it puts them; is ?fixture=N capped?)`,
    };
  return null;
}
