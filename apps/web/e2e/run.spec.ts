import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

test.describe("running generations (offline local provider)", () => {
  test("text → image generator → Run: the image appears in the node", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("run");
    const text = await canvas.add("Text");
    await canvas.drag(text, -350, -120);
    const image = await canvas.add("FLUX1.1 [pro]");
    await canvas.drag(image, 80, -150);
    await canvas.node(text).getByRole("textbox", { name: "Text" }).fill("a red fox in the snow");
    await canvas.connect(text, "text", image, "prompt");
    await expect(canvas.edges()).toHaveCount(1);

    await canvas.node(image).getByRole("button", { name: "Run" }).click();
    // Live status while it runs, then the result.
    await expect(canvas.node(image).getByRole("button", { name: "Cancel" })).toBeVisible();
    await expect(canvas.node(image).locator(".status-pill")).toHaveText("Done", {
      timeout: 30_000,
    });
    const output = canvas.node(image).locator(".node-output img").first();
    await expect(output).toHaveAttribute("src", /\/api\/media\/file\/.+\.png$/);
    expect(
      await output.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
    ).toBe(true);
    await canvas.shot("run-image");
  });

  test("a missing required input is shown on the node and nothing is sent", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("run-missing");
    const crop = await canvas.add("Crop");
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/generate/")) sent.push(request.url());
    });
    await canvas.node(crop).getByRole("button", { name: "Run" }).click();
    await expect(canvas.node(crop).getByRole("alert")).toHaveText("Missing required input: Image");
    expect(sent).toEqual([]);
  });

  test("cancel a queued job", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("run-cancel");
    const image = await canvas.add("FLUX1.1 [pro]");
    await canvas.node(image).getByRole("textbox", { name: "Prompt" }).fill("a slow one");
    await canvas.node(image).getByRole("button", { name: "Run" }).click();
    await canvas.node(image).getByRole("button", { name: "Cancel" }).click();
    await expect(canvas.node(image).getByRole("button", { name: "Run" })).toBeVisible();
    await expect(canvas.node(image).locator(".status-pill")).toHaveText("Idle");
    await expect(canvas.node(image).locator(".node-output img")).toHaveCount(0);
  });
});
