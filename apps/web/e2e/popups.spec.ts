import { expect, type Locator, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

/** Waits until the element's whole box lies inside the browser window. */
async function expectInsideViewport(page: Page, element: Locator): Promise<void> {
  const viewport = page.viewportSize();
  if (!viewport) throw new Error("no viewport");
  await expect
    .poll(async () => {
      const box = await element.boundingBox();
      if (!box) return "not rendered";
      const inside =
        box.x >= 0 &&
        box.y >= 0 &&
        box.x + box.width <= viewport.width &&
        box.y + box.height <= viewport.height;
      return inside ? "inside" : `${box.x},${box.y} ${box.width}×${box.height}`;
    })
    .toBe("inside");
}

test.describe("popups and toolbars stay in view", () => {
  test("the compatible-node search of a wire dropped near the bottom edge", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    const text = await canvas.add("Text");
    const from = await canvas.handle(text, "text", "source").boundingBox();
    if (!from) throw new Error("handle not visible");
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + 120, 790, { steps: 12 });
    await page.mouse.up();

    const search = page.getByRole("dialog", { name: "Add a node" });
    await expect(search.getByRole("textbox")).toHaveAttribute("placeholder", "Compatible nodes…");
    await expectInsideViewport(page, search);
    // Its list is usable, not only its input.
    await expectInsideViewport(page, search.getByRole("list").getByRole("button").first());
    await canvas.shot("popup-wire-search-bottom");
  });

  test("the double-click search near the bottom-right corner and the right edge", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    const pane = page.locator(".react-flow__pane");
    const box = await pane.boundingBox();
    if (!box) throw new Error("canvas not visible");
    const search = page.getByRole("dialog", { name: "Add a node" });
    for (const at of [
      { x: box.width - 12, y: box.height - 12 },
      { x: box.width - 12, y: box.height / 2 },
    ]) {
      await pane.dblclick({ position: at });
      await expect(search).toBeVisible();
      await expectInsideViewport(page, search);
      await search.getByRole("textbox").press("Escape");
      await expect(search).toHaveCount(0);
    }
  });

  test("the selection toolbar is not covered by the queue panel", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    // The job's status never arrives: it stays queued and the queue panel stays open.
    await page.route("**/api/queue/events*", () => undefined);
    await page.route("**/api/queue/status", () => undefined);
    const text = await canvas.add("Text");
    await canvas.drag(text, -350, -120);
    const image = await canvas.add("FLUX1.1 [pro]");
    await canvas.node(image).getByRole("textbox", { name: "Prompt" }).fill("a paper boat");
    await canvas.node(image).getByRole("button", { name: "Run", exact: true }).click();
    const queue = page.getByRole("complementary", { name: "Queue" });
    await expect(queue).toBeVisible();

    await canvas.select([text, image]);
    const toolbar = page.getByRole("toolbar", { name: "Selection" });
    const remove = toolbar.getByRole("button", { name: "Delete", exact: true });
    await expect(remove).toBeVisible();
    await expectInsideViewport(page, toolbar);
    // What is drawn at the button's centre is the button, not the panel.
    await expect
      .poll(() =>
        remove.evaluate((button) => {
          const { x, y, width, height } = button.getBoundingClientRect();
          const hit = document.elementFromPoint(x + width / 2, y + height / 2);
          return button.contains(hit) ? "the button" : `${hit?.tagName}.${hit?.className}`;
        }),
      )
      .toBe("the button");
    // No part of the bar lies under the panel.
    const bar = await toolbar.boundingBox();
    const panel = await queue.boundingBox();
    if (!bar || !panel) throw new Error("toolbar or queue panel not visible");
    const apart =
      bar.x + bar.width <= panel.x ||
      panel.x + panel.width <= bar.x ||
      bar.y + bar.height <= panel.y ||
      panel.y + panel.height <= bar.y;
    expect(apart, `toolbar ${JSON.stringify(bar)} under panel ${JSON.stringify(panel)}`).toBe(true);
    await canvas.shot("popup-toolbar-with-queue");
  });
});
