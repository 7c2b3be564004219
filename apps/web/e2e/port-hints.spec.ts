import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

test("while a wire is dragged, the ports that would take it stand out and the others fade", async ({
  page,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  const text = await canvas.add("Text");
  await canvas.drag(text, -350, -120);
  await canvas.node(text).getByRole("textbox", { name: "Text" }).fill("a red fox");
  const image = await canvas.add("FLUX1.1 [pro]");
  await canvas.drag(image, 80, -150);

  const port = (node: string, label: string) =>
    canvas
      .node(node)
      .locator(".inputs .port")
      .filter({ hasText: new RegExp(`^${label}\\*?$`) });
  // Nothing is dragged: no hints.
  await expect(canvas.node(image).locator(".port[data-hint]")).toHaveCount(0);

  const from = await canvas.node(text).locator(".react-flow__handle.source").boundingBox();
  if (!from) throw new Error("no source handle");
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + 200, from.y + 60, { steps: 8 });
  // Text into FLUX: the prompt takes it (the same rule as a drop); image and seed do not.
  await expect(port(image, "Prompt")).toHaveAttribute("data-hint", "accepts");
  await expect(port(image, "Image")).toHaveAttribute("data-hint", "refuses");
  await expect(port(image, "Seed")).toHaveAttribute("data-hint", "refuses");
  await canvas.shot("port-hints");
  await page.mouse.up();
  await expect(canvas.node(image).locator(".port[data-hint]")).toHaveCount(0);
});
