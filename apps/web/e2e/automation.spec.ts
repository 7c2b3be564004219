import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

test("image automation runs a generator once per line, shows each item and keeps them after a reload", async ({
  page,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await canvas.signUp("automation");
  const text = await canvas.add("Text");
  await canvas.drag(text, -480, -150);
  const automation = await canvas.add("Image Automation");
  await canvas.drag(automation, -120, -180);
  const image = await canvas.add("FLUX1.1 [pro]");
  await canvas.drag(image, 260, -160);
  await canvas
    .node(text)
    .getByRole("textbox", { name: "Text" })
    .fill("a red fox\na blue whale\n\na green owl");
  await canvas.connect(text, "text", automation, "media");
  await canvas.connect(automation, "items", image, "prompt");
  await expect(canvas.edges()).toHaveCount(2);
  const panel = canvas.node(automation).getByRole("region", { name: "Automation" });
  await expect(panel).toContainText("3 items to run: a red fox, a blue whale, a green owl");

  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/generate/"))
      sent.push(String(JSON.parse(request.postData() ?? "{}").inputs?.prompt));
  });
  await page.getByRole("button", { name: "Run all" }).click();
  const items = panel.getByRole("list", { name: "Items" }).locator("li");
  await expect(items).toHaveCount(3);
  await expect(items.locator(".automation-status")).toHaveText(["Done", "Done", "Done"], {
    timeout: 60_000,
  });
  expect(sent.sort()).toEqual(["a blue whale", "a green owl", "a red fox"]);
  await expect(panel).toContainText("3 of 3 done");
  await expect(canvas.node(automation).getByText("3 of 3 items done")).toBeVisible();
  // Three different images, each one in the generator's history too.
  const sources = await items
    .locator("img")
    .evaluateAll((images) => images.map((img) => (img as HTMLImageElement).getAttribute("src")));
  expect(new Set(sources).size).toBe(3);
  for (const src of sources) expect(src).toMatch(/\/api\/media\/file\/.+\.png$/);
  await expect(canvas.node(image).locator(".status-pill")).toHaveText("Done");
  await expect(canvas.node(image).getByText(/Result 3 of 3/)).toBeVisible();
  await canvas.shot("image-automation");

  await page.keyboard.press("Control+s");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  await page.reload();
  await expect(
    canvas
      .node(automation)
      .getByRole("region", { name: "Automation" })
      .locator(".automation-status"),
  ).toHaveText(["Done", "Done", "Done"]);
});
