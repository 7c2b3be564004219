import { existsSync } from "node:fs";
import { chromium } from "playwright-core";

/**
 * Debian's Chromium through playwright-core (never a downloaded browser), headless with
 * software rendering, plus in-page probes: long tasks, frame counting and, on request, a
 * React DevTools-style commit hook that counts which components rendered.
 */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const VIEWPORT = { width: 1280, height: 800 };

export async function launchBrowser() {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium not found at ${CHROMIUM} (apt-get install -y chromium, or CHROMIUM_PATH)`,
    );
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      // Frames keep their pace in tabs that are not focused (several pages are open at once).
      "--disable-background-timer-throttling",
      "--disable-renderer-backgrounding",
      "--disable-backgrounding-occluded-windows",
    ],
  });
}

/** Runs in the page before its scripts (addInitScript); `react` adds the commit hook. */
function probes(options) {
  const bench = {
    longTasks: [],
    commits: 0,
    walk: false,
    nodeRenders: {},
    edgeRenders: 0,
    otherRenders: 0,
    nodeCommits: 0,
    frames: 0,
    frameRun: false,
  };
  window.__bench = bench;
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch {}
  if (!options.react) return;
  // React (production builds too) reports every commit to this hook when present.
  const RENDERS = new Set([0, 1, 11, 15]); // function, class, forwardRef, simple memo
  const PERFORMED_WORK = 1;
  // The component's first host element; an edge wrapper's is <svg> holding <g class=…edge>.
  const hostOf = (fiber) => {
    let at = fiber.child;
    while (at && at.tag !== 5) at = at.child;
    if (at?.type === "svg" && at.child?.tag === 5) return at.child;
    return at;
  };
  const walk = (root) => {
    // Only fibers React processed in this commit: a child list identical to the previous
    // commit's was not reconciled, so its subtree did not render (how DevTools prunes).
    const stack = [[root, null]];
    const touched = new Set();
    while (stack.length > 0) {
      const [fiber, nodeId] = stack.pop();
      let inside = nodeId;
      if (fiber.tag === 5) {
        const props = fiber.memoizedProps ?? {};
        if (typeof props.className === "string" && props.className.includes("react-flow__node"))
          inside = props["data-id"] ?? inside;
      }
      if (RENDERS.has(fiber.tag) && fiber.flags & PERFORMED_WORK) {
        const host = hostOf(fiber);
        const props = host?.memoizedProps ?? {};
        const testId = props["data-testid"];
        if (typeof testId === "string" && testId.startsWith("node-")) {
          const id = testId.slice(5);
          bench.nodeRenders[id] = (bench.nodeRenders[id] ?? 0) + 1;
        } else if (
          host?.type === "g" &&
          typeof props.className === "string" &&
          props.className.includes("react-flow__edge")
        ) {
          bench.edgeRenders++;
        } else if (!inside) bench.otherRenders++;
        if (inside) touched.add(inside);
      }
      const previous = fiber.alternate;
      if (fiber.child && (previous === null || fiber.child !== previous.child)) {
        for (let child = fiber.child; child; child = child.sibling) stack.push([child, inside]);
      }
    }
    bench.nodeCommits += touched.size;
  };
  let nextId = 1;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    isDisabled: false,
    renderers: new Map(),
    inject(renderer) {
      const id = nextId++;
      this.renderers.set(id, renderer);
      return id;
    },
    onCommitFiberRoot(_id, root) {
      bench.commits++;
      if (bench.walk) walk(root.current);
    },
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    checkDCE() {},
  };
}

/**
 * A page in its own context (own storage, own cookies) with the probes installed. The app's
 * service worker is blocked unless asked for: it installs once per device, in the background,
 * and the rows measure the editor, not that one-off download (F2 lets it run, as a visitor's
 * browser would).
 */
export async function openPage(browser, { react = false, init, serviceWorkers = "block" } = {}) {
  const context = await browser.newContext({ viewport: VIEWPORT, serviceWorkers });
  await context.addInitScript(probes, { react });
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  return { context, page, close: () => context.close() };
}

/** Resets the counters in the page. */
export const resetCounters = (page) =>
  page.evaluate(() => {
    const bench = window.__bench;
    Object.assign(bench, { commits: 0, nodeRenders: {}, edgeRenders: 0, otherRenders: 0 });
    bench.nodeCommits = 0;
    const counts = window.__atelierRenderCounts;
    for (const key of Object.keys(counts ?? {})) delete counts[key];
    bench.longTasks.length = 0;
  });

export const readCounters = (page) =>
  page.evaluate(() => JSON.parse(JSON.stringify(window.__bench)));

/** Starts counting animation frames (rAF callbacks) in the page. */
export const startFrames = (page) =>
  page.evaluate(() => {
    const bench = window.__bench;
    bench.frames = 0;
    bench.frameRun = true;
    bench.frameStart = performance.now();
    const tick = () => {
      if (!bench.frameRun) return;
      bench.frames++;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });

export const stopFrames = (page) =>
  page.evaluate(() => {
    const bench = window.__bench;
    bench.frameRun = false;
    return { frames: bench.frames, ms: performance.now() - bench.frameStart };
  });

/** Waits until the page has had no long task for `quietMs` (or `maxMs` passed). */
export async function settle(page, quietMs = 800, maxMs = 20_000) {
  const start = Date.now();
  for (;;) {
    const idle = await page.evaluate(() => {
      const tasks = window.__bench.longTasks;
      const last = tasks.at(-1);
      return performance.now() - (last ? last.start + last.duration : 0);
    });
    if (idle >= quietMs || Date.now() - start > maxMs) return;
    await new Promise((resolve) => setTimeout(resolve, Math.max(50, quietMs - idle)));
  }
}

/** The canvas zoom, read from React Flow's viewport transform. */
export const zoomOf = (page) =>
  page.evaluate(() => {
    const style = document.querySelector(".react-flow__viewport")?.style.transform ?? "";
    return Number(/scale\(([\d.e-]+)\)/.exec(style)?.[1] ?? Number.NaN);
  });

export const chromiumVersion = (browser) => browser.version();
