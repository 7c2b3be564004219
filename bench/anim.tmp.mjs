import { launchBrowser, openPage } from "./lib/browser.mjs";
import { openFixture } from "./lib/canvas-driver.mjs";
import { startServer } from "./lib/server.mjs";
const server = await startServer({ webRoot: `${process.cwd()}/.build/web` });
const browser = await launchBrowser();
const { page } = await openPage(browser);
await openFixture(page, server.url, 2000);
console.log(await page.evaluate(() => {
  const a = document.getAnimations();
  return { count: a.length, sample: a.slice(0, 5).map((x) => `${x.animationName ?? x.constructor.name} on ${x.effect?.target?.className?.baseVal ?? x.effect?.target?.className}`) };
}));
// frames while idle
console.log(await page.evaluate(() => new Promise((resolve) => { let n = 0; const t0 = performance.now(); const f = () => { n++; if (performance.now() - t0 < 1000) requestAnimationFrame(f); else resolve(n); }; requestAnimationFrame(f); })));
await browser.close(); await server.stop();
