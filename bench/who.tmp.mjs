import { launchBrowser } from "./lib/browser.mjs";
import { openFixture, timedDrag } from "./lib/canvas-driver.mjs";
import { startServer } from "./lib/server.mjs";
const server = await startServer({ webRoot: `${process.cwd()}/.build/web` });
const browser = await launchBrowser();
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const page = await context.newPage();
await page.addInitScript(() => {
  window.__bench = { longTasks: [], frames: 0 };
  window.__who = { on: false, names: {}, commits: 0 };
  const nameOf = (f) => { const t = f.type; if (!t) return null; if (typeof t === "string") return null; return t.displayName || t.name || (t.type && (t.type.displayName || t.type.name)) || (t.render && (t.render.displayName || t.render.name)) || (f.tag === 10 ? "Provider" : f.tag === 9 ? "Consumer" : `tag${f.tag}`); };
  const walk = (root) => {
    const stack = [root];
    while (stack.length) {
      const f = stack.pop();
      if (f.flags & 1) { const n = nameOf(f); if (n) { window.__who.names[n] = (window.__who.names[n] ?? 0) + 1; const t = f.type?.type ?? f.type; if (typeof t === "function") (window.__who.src ??= {})[n] = t.toString().slice(0, 160); } }
      const prev = f.alternate;
      if (f.child && (prev === null || f.child !== prev.child)) for (let c = f.child; c; c = c.sibling) stack.push(c);
    }
  };
  let id = 1;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = { supportsFiber: true, isDisabled: false, renderers: new Map(), inject(r) { this.renderers.set(id, r); return id++; }, onCommitFiberRoot(_i, root) { if (window.__who.on) { window.__who.commits++; walk(root.current); } }, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {}, checkDCE() {} };
});
// frame counter used by timedDrag
await page.addInitScript(() => { const b = window.__bench; const tick = () => { if (b.frameRun) b.frames++; requestAnimationFrame(tick); }; requestAnimationFrame(tick); });
await openFixture(page, server.url, 2000);
await page.evaluate(() => { window.__who.on = true; });
const r = await timedDrag(page, "n1027", 1500).catch((e) => ({ err: e.message }));
console.log(r);
console.log(await page.evaluate(() => window.__who.commits), Object.entries(await page.evaluate(() => window.__who.names)).sort((a, b) => b[1] - a[1]).slice(0, 30));
console.log(await page.evaluate(() => window.__who.src));
await browser.close(); await server.stop();
