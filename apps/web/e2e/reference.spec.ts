import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";
import { transferOf } from "./drop.ts";

test("a character reference feeds a generator its images and who the character is", async ({
  page,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await canvas.signUp("reference");
  const mia = await canvas.add("Character Reference");
  await canvas.drag(mia, -120, -160);
  const header = canvas.node(mia).locator(".node-header");
  for (const [index, name] of ["front.png", "side.png"].entries()) {
    const transfer = await transferOf(page, name);
    for (const type of ["dragenter", "dragover", "drop"])
      await header.dispatchEvent(type, { dataTransfer: transfer });
    await expect(canvas.edges()).toHaveCount(index + 1, { timeout: 20_000 });
  }
  await canvas.node(mia).getByRole("textbox", { name: "Name" }).fill("Mia");
  await canvas.node(mia).getByRole("textbox", { name: "Description" }).fill("red hair, green coat");
  const card = canvas.node(mia).getByRole("region", { name: "Character" });
  await expect(card.locator("img")).toHaveCount(2);
  await expect(card.locator("figcaption")).toHaveText("Mia — red hair, green coat");

  const generator = await canvas.add("Seedream 4");
  await canvas.drag(generator, 300, -140);
  await canvas.node(generator).getByRole("textbox", { name: "Prompt" }).fill("walking in Paris");
  await canvas.connect(mia, "reference", generator, "referenceImages");
  await expect(canvas.edges()).toHaveCount(3);

  const sent = page.waitForRequest((request) => request.url().includes("/api/generate/seedream"));
  await canvas.node(generator).getByRole("button", { name: "Run", exact: true }).click();
  const body = (await sent).postDataJSON() as {
    inputs: { referenceImages: string[]; prompt: string };
  };
  expect(body.inputs.referenceImages).toHaveLength(2);
  for (const url of body.inputs.referenceImages)
    expect(url).toMatch(/\/api\/media\/file\/.+\.png$/);
  expect(body.inputs.prompt).toBe("walking in Paris\nMia: red hair, green coat");
  await expect(canvas.node(generator).locator(".status-pill")).toHaveText("Done", {
    timeout: 30_000,
  });
  await canvas.shot("character-reference");

  await page.keyboard.press("Control+s");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  await page.reload();
  await expect(
    canvas.node(mia).getByRole("region", { name: "Character" }).locator("figcaption"),
  ).toHaveText("Mia — red hair, green coat");
});
