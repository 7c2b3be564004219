import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

test("Tidy up lays the selection out left to right along its wires, in one undo step", async ({
  page,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  // A chain Text → FLUX → Upscaler, placed against the flow: right to left.
  const upscaler = await canvas.add("Upscaler");
  await canvas.drag(upscaler, -380, -180);
  const flux = await canvas.add("FLUX1.1 [pro]");
  await canvas.drag(flux, -40, -120);
  const text = await canvas.add("Text");
  await canvas.drag(text, 260, -60);
  await canvas.node(text).getByRole("textbox", { name: "Text" }).fill("a harbour at dawn");
  await canvas.connect(text, "text", flux, "prompt");
  await expect(canvas.edges()).toHaveCount(1);
  const before = await Promise.all([text, flux, upscaler].map((id) => canvas.position(id)));

  await canvas.select([text, flux, upscaler]);
  await page
    .getByRole("toolbar", { name: "Selection" })
    .getByRole("button", { name: "Tidy up" })
    .click();
  // The wired pair now reads left to right; nothing overlaps.
  await expect
    .poll(async () => (await canvas.position(flux)).x - (await canvas.position(text)).x)
    .toBeGreaterThan(0);
  const boxes = await Promise.all(
    [text, flux, upscaler].map(async (id) => (await canvas.node(id).boundingBox()) as DOMRect),
  );
  for (const [i, a] of boxes.entries())
    for (const b of boxes.slice(i + 1))
      expect(
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height,
      ).toBe(false);
  await canvas.shot("tidy-up");

  await page.keyboard.press("Control+z");
  await expect(canvas.toast("Undid: Tidy up")).toBeVisible();
  expect(await Promise.all([text, flux, upscaler].map((id) => canvas.position(id)))).toEqual(
    before,
  );
});
