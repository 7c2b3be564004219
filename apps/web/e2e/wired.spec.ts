import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

test("a wired prompt shows what arrives and from where; unplugged, the typed prompt is back", async ({
  page,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  const text = await canvas.add("Text");
  await canvas.drag(text, -350, -120);
  const image = await canvas.add("FLUX1.1 [pro]");
  await canvas.drag(image, 80, -150);
  await canvas.node(text).getByRole("textbox", { name: "Text" }).fill("a lighthouse at dusk");
  await canvas.node(image).getByRole("textbox", { name: "Prompt" }).fill("my own words");

  await canvas.connect(text, "text", image, "prompt");
  await expect(canvas.edges()).toHaveCount(1);
  const wired = canvas.node(image).getByRole("group", { name: "Prompt (wired)" });
  await expect(wired).toContainText("from Text");
  await expect(wired).toContainText("a lighthouse at dusk");
  // No editor whose words the run would ignore.
  await expect(canvas.node(image).getByRole("textbox", { name: "Prompt" })).toHaveCount(0);

  // It follows the source as it changes.
  await canvas.node(text).getByRole("textbox", { name: "Text" }).fill("a castle in fog");
  await expect(wired).toContainText("a castle in fog");
  await canvas.shot("wired-prompt");

  // Unplugged: the editor again, with what was typed before.
  await canvas.edges().first().click();
  await page.keyboard.press("Delete");
  await expect(canvas.edges()).toHaveCount(0);
  await expect(canvas.node(image).getByRole("textbox", { name: "Prompt" })).toHaveValue(
    "my own words",
  );
  await expect(wired).toHaveCount(0);
});
