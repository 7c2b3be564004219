import { launchBrowser, openPage } from "./lib/browser.mjs";
import { openFixture, grabPoint } from "./lib/canvas-driver.mjs";
import { startServer } from "./lib/server.mjs";
const server = await startServer({ webRoot: `${process.cwd()}/.build/web` });
const browser = await launchBrowser();
const { page } = await openPage(browser);
await openFixture(page, server.url, 2000);
const at = await grabPoint(page, "n1000");
await page.mouse.move(at.x, at.y); await page.mouse.down();
for (let i = 1; i < 10; i++) await page.mouse.move(at.x + i * 5, at.y + i * 3);
console.log(await page.evaluate(() => {
  const nodes = [...document.querySelectorAll(".react-flow__node")];
  const dragged = document.querySelector(".react-flow__node.dragging");
  return {
    canvasClass: document.querySelector(".canvas")?.className,
    dragged: dragged?.getAttribute("data-id"), willChange: dragged && getComputedStyle(dragged).willChange,
    pointerNone: nodes.filter((n) => getComputedStyle(n).pointerEvents === "none").length, total: nodes.length,
    ua: navigator.userAgent,
  };
}));
await page.mouse.up();
await browser.close(); await server.stop();
