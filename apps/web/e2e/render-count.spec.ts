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

test("a dragged node moves by a held animation under a pointer shield, both gone on drop", async ({
  page,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open("?fixture=100");
  await expect(canvas.nodes()).toHaveCount(100, { timeout: 30_000 });
  const target = "n50";
  const box = await canvas.node(target).boundingBox();
  if (!box) throw new Error("node not visible");
  const start = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  for (let step = 1; step <= 20; step++)
    await page.mouse.move(start.x + step * 6, start.y + step * 3);

  const during = await page.evaluate((id) => {
    const node = document.querySelector<HTMLElement>(`.react-flow__node[data-id="${id}"]`);
    const shield = document.querySelector(".drag-shield");
    if (!node || !shield) throw new Error("node or shield missing");
    const inline = /translate\((-?[\d.]+)px,\s*(-?[\d.]+)px\)/.exec(node.style.transform);
    return {
      shield: getComputedStyle(shield).display,
      animations: document.getAnimations().map((animation) => {
        const effect = animation.effect as KeyframeEffect;
        return (effect.target as HTMLElement).dataset.id;
      }),
      held: new DOMMatrix(getComputedStyle(node).transform),
      inline: inline ? { x: Number(inline[1]), y: Number(inline[2]) } : null,
    };
  }, target);
  expect(during.shield).toBe("block");
  expect(during.animations).toEqual([target]);
  // The held transform is the one React Flow wrote last: the node is where it should be.
  expect(during.inline).not.toBeNull();
  expect(during.held.e).toBeCloseTo(during.inline?.x ?? Number.NaN, 3);
  expect(during.held.f).toBeCloseTo(during.inline?.y ?? Number.NaN, 3);
  const moved = await canvas.node(target).boundingBox();
  expect(Math.round((moved?.x ?? box.x) - box.x)).toBeGreaterThan(60);

  await page.mouse.up();
  const after = await page.evaluate(() => ({
    animations: document.getAnimations().length,
    shield: getComputedStyle(document.querySelector(".drag-shield") as Element).display,
    dragging: document.querySelector(".canvas")?.classList.contains("node-dragging"),
  }));
  expect(after).toEqual({ animations: 0, shield: "none", dragging: false });
  const dropped = await canvas.node(target).boundingBox();
  expect(Math.round(dropped?.x ?? 0)).toBe(Math.round(moved?.x ?? -1));
});
