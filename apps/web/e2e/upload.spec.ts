import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";
import { dropOnPane, transferOf } from "./drop.ts";

test.describe("dropping files on the canvas", () => {
  test("a dropped image uploads and feeds a crop that runs", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("upload");
    const uploads: number[] = [];
    page.on("response", (response) => {
      if (response.request().method() === "POST" && response.url().endsWith("/api/media"))
        uploads.push(response.status());
    });

    await dropOnPane(page, await transferOf(page, "dropped.png"));
    await expect(canvas.nodes()).toHaveCount(1);
    const [image] = await canvas.nodeIds();
    if (!image) throw new Error("no node for the dropped file");
    const held = canvas.node(image).locator(".node-output img").first();
    await expect(held).toHaveAttribute("src", /\/api\/media\/file\/.+\.png$/, { timeout: 20_000 });
    await expect(canvas.node(image).locator(".status-pill")).toHaveText("Done");
    await expect(canvas.node(image).getByLabel("Upload progress")).toHaveCount(0);
    expect(uploads).toEqual([201]);
    // The image decodes a moment after its node says Done.
    await expect
      .poll(() => held.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);

    const crop = await canvas.add("Crop");
    await canvas.drag(crop, 380, 0);
    await canvas.connect(image, "output", crop, "image");
    await expect(canvas.edges()).toHaveCount(1);
    // Keep the left half, so the result is visibly the crop of the upload.
    await canvas
      .node(crop)
      .getByRole("button", { name: /^Advanced/ })
      .click();
    await canvas.node(crop).getByRole("spinbutton", { name: "Width", exact: true }).fill("0.5");
    await canvas.node(crop).getByRole("button", { name: "Run", exact: true }).click();
    await expect(canvas.node(crop).locator(".status-pill")).toHaveText("Done", {
      timeout: 30_000,
    });
    const cropped = canvas.node(crop).locator(".node-output img").first();
    await expect(cropped).toHaveAttribute("src", /\/api\/media\/file\/.+/);
    await expect
      .poll(() =>
        cropped.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]),
      )
      .toEqual([80, 120]);
    await canvas.shot("upload-crop");
  });

  test("an image dropped on a node fills its image input", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("upload-onto");
    const crop = await canvas.add("Crop");
    await canvas.drag(crop, 200, 0);
    const transfer = await transferOf(page, "onto.png");
    const target = canvas.node(crop).locator(".node-header");
    for (const type of ["dragenter", "dragover", "drop"])
      await target.dispatchEvent(type, { dataTransfer: transfer });
    await expect(canvas.nodes()).toHaveCount(2);
    await expect(canvas.edges()).toHaveCount(1, { timeout: 20_000 });
    await canvas.node(crop).getByRole("button", { name: "Run", exact: true }).click();
    await expect(canvas.node(crop).locator(".status-pill")).toHaveText("Done", {
      timeout: 30_000,
    });
  });

  test("images dropped on an Image Container fill its gallery; Run passes them on", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("gallery");
    const gallery = await canvas.add("Image Container");
    await canvas.drag(gallery, 250, 0);
    const target = canvas.node(gallery).locator(".node-header");
    for (const name of ["one.png", "two.png"]) {
      const transfer = await transferOf(page, name);
      for (const type of ["dragenter", "dragover", "drop"])
        await target.dispatchEvent(type, { dataTransfer: transfer });
      await expect(canvas.edges()).toHaveCount(name === "one.png" ? 1 : 2, { timeout: 20_000 });
    }
    const grid = canvas.node(gallery).getByRole("list", { name: "Gallery" });
    await expect(grid.locator("img")).toHaveCount(2);
    await expect(
      canvas.node(gallery).getByRole("button", { name: "Download all (2)" }),
    ).toBeVisible();
    await canvas.node(gallery).getByRole("button", { name: "Run", exact: true }).click();
    await expect(canvas.node(gallery).locator(".status-pill")).toHaveText("Done", {
      timeout: 30_000,
    });
    await expect(grid.locator("img")).toHaveCount(2);
    await canvas.shot("gallery");
  });

  test("a dropped .txt file is refused with SPEC's message", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("upload-txt");
    await dropOnPane(page, await transferOf(page, "notes.txt", "hello"));
    await expect(
      canvas.toast('File extension "txt" is not allowed. Allowed extensions: jpg, jpeg, png'),
    ).toBeVisible();
    await expect(canvas.nodes()).toHaveCount(0);
  });
});
