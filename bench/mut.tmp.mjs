import { launchBrowser, openPage } from "./lib/browser.mjs";
import { openFixture, timedDrag } from "./lib/canvas-driver.mjs";
import { startServer } from "./lib/server.mjs";
const server = await startServer({ webRoot: `${process.cwd()}/.build/web` });
const browser = await launchBrowser();
const { page } = await openPage(browser);
await openFixture(page, server.url, Number(process.env.SIZE ?? 2000));
await page.evaluate(() => {
  window.__muts = {};
  new MutationObserver((list) => {
    for (const m of list) {
      if (m.type === "attributes" && m.attributeName === "style" && m.target.classList?.contains("react-flow__node")) (window.__st ??= []).push(m.target.getAttribute("style"));
      if (m.type === "childList") for (const n of [...m.addedNodes].map((x) => "+" + x.dataset?.id).concat([...m.removedNodes].map((x) => "-" + x.dataset?.id))) (window.__ch ??= []).push(n);
      const el = m.target.nodeType === 1 ? m.target : m.target.parentElement;
      const k = `${m.type}:${m.attributeName ?? ""}:${el?.tagName}.${String(el?.className?.baseVal ?? el?.className ?? "").slice(0, 60)}`;
      window.__muts[k] = (window.__muts[k] ?? 0) + 1;
    }
  }).observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true, attributeOldValue: false });
});
const r = await timedDrag(page, process.env.NODE ?? "n1000", 1500);
console.log(r.frames, "frames");
console.log(Object.entries(await page.evaluate(() => window.__muts)).sort((a, b) => b[1] - a[1]).slice(0, 20));
console.log((await page.evaluate(() => window.__st)).slice(0, 4).join("\n"));
await browser.close(); await server.stop();
