import { expect, test } from "@playwright/test";
import { scan } from "./axe.ts";
import { CanvasPage } from "./canvas-page.ts";

const focusedNode = (page: import("@playwright/test").Page) =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.id ?? null);

test("nodes from the keyboard: Tab between nodes, Enter into the form, C to connect", async ({
  page,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  const text = await canvas.add("Text");
  const flux = await canvas.addAndMove("FLUX1.1 [pro]", 420, 0);
  await page.locator(".react-flow__pane").click({ position: { x: 20, y: 20 } });

  // From the top of the page, Tab reaches the first node.
  await page.locator("body").focus();
  for (let presses = 0; presses < 80 && (await focusedNode(page)) !== text; presses++)
    await page.keyboard.press("Tab");
  expect(await focusedNode(page)).toBe(text);
  // Tab goes to the next node, not through the Text node's field; Shift+Tab comes back.
  await page.keyboard.press("Tab");
  expect(await focusedNode(page)).toBe(flux);
  await page.keyboard.press("Shift+Tab");
  expect(await focusedNode(page)).toBe(text);

  // Enter opens the node's form; Esc goes back to the node.
  await page.keyboard.press("Enter");
  const field = page.locator(`.react-flow__node[data-id="${text}"] textarea`).first();
  await expect(field).toBeFocused();
  await page.keyboard.type("a fox in the snow");
  await page.keyboard.press("Escape");
  expect(await focusedNode(page)).toBe(text);
  await expect(field).toHaveValue("a fox in the snow");

  // C lists the wires the node could give; the filter narrows them; Enter makes one.
  await page.keyboard.press("c");
  const dialog = page.getByRole("dialog", { name: "Connect" });
  await expect(dialog).toBeVisible();
  const options = dialog.getByRole("list", { name: "Connections" }).getByRole("button");
  await expect(options.filter({ hasText: /^Text · .+ → FLUX1\.1 \[pro\] · Prompt$/ })).toHaveCount(
    1,
  );
  await scan(page, "Connect dialog");
  await page.keyboard.type("prompt");
  await expect(options).toHaveCount(1);
  await page.keyboard.press("Tab");
  await expect(options.first()).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(canvas.edges()).toHaveCount(1);
  await expect(canvas.toast("Connected Text")).toBeVisible();
  expect(await focusedNode(page)).toBe(text);

  // The same list from the selection toolbar; the wire made is no longer offered.
  await page.locator(`.react-flow__node[data-id="${flux}"]`).click({ position: { x: 60, y: 12 } });
  await page.getByRole("button", { name: "Connect…" }).click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(/→ FLUX1\.1 \[pro\] · Prompt$/)).toHaveCount(0);
  await canvas.shot("keyboard-connect");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});

test("Tab goes on to a node out of view: the canvas pans to it", async ({ page }) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  const first = await canvas.add("Text");
  const far = await canvas.addAndMove("Text", 700, 0);
  // Zoomed in on the first node, the other is off-screen and not rendered at all.
  const box = await canvas.node(first).boundingBox();
  if (!box) throw new Error("first node not visible");
  // On the pane just left of it (a card's text box keeps the wheel to itself).
  await page.mouse.move(box.x - 10, box.y + 10);
  for (let step = 0; step < 8 && (await canvas.node(far).count()) > 0; step++)
    await page.mouse.wheel(0, -400);
  await expect(canvas.node(far)).toHaveCount(0);

  await canvas.node(first).focus();
  await page.keyboard.press("Tab");
  await expect.poll(() => focusedNode(page)).toBe(far);
  await expect(canvas.node(far)).toBeInViewport({ ratio: 0.5 });
  await page.keyboard.press("Shift+Tab");
  await expect.poll(() => focusedNode(page)).toBe(first);
});
