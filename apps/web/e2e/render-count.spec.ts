import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

type Counts = Record<string, number>;

test("dragging one node in a 1000-node graph re-renders that node only", async ({ page }) => {
  const canvas = new CanvasPage(page);
  await canvas.open("?fixture=1000&debug=renders");
  await expect(canvas.nodes()).toHaveCount(1000, { timeout: 30_000 });
  await canvas.shot("10-fixture-1000");

  const target = "n500";
  const box = await canvas.node(target).boundingBox();
  if (!box) throw new Error("node not visible");
  // Select it first (a selection change re-renders the node itself), then count the drag.
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.evaluate(() => {
    const counts = (window as unknown as { __atelierRenderCounts: Counts }).__atelierRenderCounts;
    for (const key of Object.keys(counts)) delete counts[key];
  });
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  for (let step = 1; step <= 30; step++)
    await page.mouse.move(box.x + box.width / 2 + step * 4, box.y + box.height / 2 + step * 2);
  await page.mouse.up();

  const counts = await page.evaluate(() => ({
    ...(window as unknown as { __atelierRenderCounts: Counts }).__atelierRenderCounts,
  }));
  const moved = await canvas.node(target).boundingBox();
  expect(Math.round((moved?.x ?? box.x) - box.x)).toBeGreaterThan(50);
  const rendered = Object.keys(counts);
  expect(rendered).toEqual([target]);
  expect(counts[target]).toBeGreaterThan(0);
});
