import { writeFileSync } from "node:fs";
import { launchBrowser, openPage } from "./lib/browser.mjs";
import { openFixture, timedDrag } from "./lib/canvas-driver.mjs";
import { startServer } from "./lib/server.mjs";
const size = Number(process.env.SIZE ?? 2000);
const server = await startServer({ webRoot: `${process.cwd()}/.build/web` });
const browser = await launchBrowser();
const others = [];
if (process.env.OTHERS) for (const n of [1, 500, 1000]) { const o = await openPage(browser); await openFixture(o.page, server.url, n); others.push(o); }
const { page } = await openPage(browser);
const shown = await openFixture(page, server.url, size);
console.log("shown", shown);
if (process.env.SHIELD) await page.evaluate(() => {
  const shield = document.createElement("div");
  shield.style.cssText = "position:fixed;inset:0;z-index:10000;display:none;cursor:grabbing";
  document.body.appendChild(shield);
  new MutationObserver(() => {
    shield.style.display = document.querySelector(".canvas.node-dragging") ? "block" : "none";
  }).observe(document.querySelector(".canvas"), { attributes: true, attributeFilter: ["class"] });
});
if (process.env.ANIM) await page.evaluate(() => {
  let held = [];
  const hold = () => {
    for (const el of document.querySelectorAll(".react-flow__node.dragging")) {
      if (held.some((h) => h.el === el)) continue;
      const frames = () => [{ transform: el.style.transform }, { transform: el.style.transform }];
      const animation = el.animate(frames(), { duration: 1e9 });
      const observer = new MutationObserver(() => animation.effect.setKeyframes(frames()));
      observer.observe(el, { attributes: true, attributeFilter: ["style"] });
      held.push({ el, animation, observer });
    }
  };
  const release = () => { for (const h of held) { h.observer.disconnect(); h.animation.cancel(); } held = []; };
  new MutationObserver(() => {
    if (document.querySelector(".canvas.node-dragging")) requestAnimationFrame(hold); else release();
  }).observe(document.querySelector(".canvas"), { attributes: true, attributeFilter: ["class"] });
});
if (process.env.CSS) await page.addStyleTag({ content: process.env.CSS });
const cdp = await page.context().newCDPSession(page);
await cdp.send("Performance.enable");
const m0 = Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
if (process.env.TRACE) {
  await cdp.send("Tracing.start", { categories: "devtools.timeline,disabled-by-default-devtools.timeline,blink,cc,viz", transferMode: "ReturnAsStream" });
} else {
  await cdp.send("Profiler.enable"); await cdp.send("Profiler.start");
}
const id = process.env.NODE ?? `n${Math.floor(size / 2)}`;
const r = await timedDrag(page, id);
console.log("drag", r);
const m1 = Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
for (const k of ["LayoutCount", "RecalcStyleCount", "LayoutDuration", "RecalcStyleDuration", "ScriptDuration", "TaskDuration"]) console.log(k, (m1[k] - m0[k]).toFixed(3));
if (process.env.TRACE) {
  const done = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  await cdp.send("Tracing.end");
  const { stream } = await done;
  let data = ""; for (;;) { const c = await cdp.send("IO.read", { handle: stream }); data += c.data; if (c.eof) break; }
  writeFileSync("/tmp/prof/drag.trace.json", data);
} else {
  const { profile } = await cdp.send("Profiler.stop");
  writeFileSync("/tmp/prof/drag.cpuprofile", JSON.stringify(profile));
}
await browser.close(); await server.stop();
