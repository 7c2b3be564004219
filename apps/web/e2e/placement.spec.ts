import { expect, type Locator, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

type Box = { x: number; y: number; width: number; height: number };

/** A node's box on screen (DOM), read once it has settled. */
async function boxOf(node: Locator): Promise<Box> {
  await expect(node).toBeVisible();
  const box = await node.boundingBox();
  if (!box) throw new Error("node not visible");
  return box;
}

/** The boxes overlap (sharing only an edge does not count). */
const intersects = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Every pair of drawn nodes is apart; the boxes, for further checks. */
async function expectNoOverlap(canvas: CanvasPage): Promise<Map<string, Box>> {
  const boxes = new Map<string, Box>();
  for (const id of await canvas.nodeIds()) boxes.set(id, await boxOf(canvas.node(id)));
  const entries = [...boxes];
  for (const [index, [id, box]] of entries.entries())
    for (const [other, otherBox] of entries.slice(index + 1))
      expect(intersects(box, otherBox), `${id} overlaps ${other}`).toBe(false);
  return boxes;
}

const distance = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  Math.hypot(a.x - b.x, a.y - b.y);

/** Picks `name` in the open "Add a node" search and returns the new node's id. */
async function pickInSearch(canvas: CanvasPage, page: Page, query: string): Promise<string> {
  const before = new Set(await canvas.nodeIds());
  const search = page.getByRole("dialog", { name: "Add a node" });
  await expect(search).toBeVisible();
  await search.getByRole("textbox").fill(query);
  await search.getByRole("textbox").press("Enter");
  await expect(canvas.nodes()).toHaveCount(before.size + 1);
  const added = (await canvas.nodeIds()).find((id) => !before.has(id));
  if (!added) throw new Error(`no node appeared for ${query}`);
  return added;
}

test.describe("placement of new nodes", () => {
  test("palette clicks put each new node beside the others, near the view's centre", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    const centre = await page.evaluate(() => ({
      x: window.innerWidth / 2,
      y: window.innerHeight / 2,
    }));
    const first = await canvas.add("Text");
    const firstBox = await boxOf(canvas.node(first));
    // An empty canvas: the node sits where it was asked for, on the view's centre.
    expect(intersects(firstBox, { ...centre, width: 1, height: 1 })).toBe(true);
    expect(Math.abs(firstBox.x + firstBox.width / 2 - centre.x)).toBeLessThan(2);

    const second = await canvas.add("Text");
    const third = await canvas.add("FLUX1.1 [pro]");
    const boxes = await expectNoOverlap(canvas);
    // Near the asked point: no further than one card and a gap from the view's centre.
    for (const id of [second, third]) {
      const box = boxes.get(id) as Box;
      const middle = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      expect(distance(middle, centre)).toBeLessThan(
        Math.max(firstBox.width, firstBox.height) + box.height,
      );
    }
    // The second node is the nearest spot off the first: beside it, not far across.
    const secondBox = boxes.get(second) as Box;
    expect(
      distance({ x: secondBox.x, y: secondBox.y }, { x: firstBox.x, y: firstBox.y }),
    ).toBeLessThan(Math.max(firstBox.width, firstBox.height) + 40);
    await canvas.shot("placement-01-palette");
  });

  test("a double-click beside a node puts the new node next to it, not over it", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    const existing = await canvas.add("Text");
    const existingBox = await boxOf(canvas.node(existing));
    // On the pane just left of the node: a card with its corner here would cover the node.
    const asked = { x: existingBox.x - 60, y: existingBox.y + 30 };
    await page.mouse.dblclick(asked.x, asked.y);
    const added = await pickInSearch(canvas, page, "Text");
    const boxes = await expectNoOverlap(canvas);
    const box = boxes.get(added) as Box;
    // Near the asked point: moved by less than its own width and a gap (the way out to the
    // left is 60 px short of that; up or down may be shorter still).
    expect(distance({ x: box.x, y: box.y }, asked)).toBeLessThan(box.width + 30);
    await canvas.shot("placement-02-double-click");
  });

  test("a wire dropped on the canvas beside a node adds the new node clear of it", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    const text = await canvas.add("Text");
    await canvas.node(text).getByRole("textbox", { name: "Text" }).fill("a lighthouse at dusk");
    const textBox = await boxOf(canvas.node(text));
    const from = await canvas.handle(text, "text", "source").boundingBox();
    if (!from) throw new Error("handle not visible");
    // Dropped on the pane just left of the node it comes from.
    const asked = { x: textBox.x - 60, y: textBox.y + 20 };
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(asked.x, asked.y, { steps: 12 });
    await page.mouse.up();
    const added = await pickInSearch(canvas, page, "FLUX1.1");
    await expect(canvas.edges()).toHaveCount(1);
    const boxes = await expectNoOverlap(canvas);
    const box = boxes.get(added) as Box;
    expect(distance({ x: box.x, y: box.y }, asked)).toBeLessThan(box.width + 30);
  });
});
