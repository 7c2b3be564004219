import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

/**
 * Runs live on the server (ADR 0010): a tab that closes mid-run loses nothing, and the
 * results the run wrote never make the editor's next save conflict.
 */
test("Run all on a 4-node chain survives closing the page; the reopened workflow has every result and saves without a conflict", async ({
  page,
  context,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await canvas.signUp("server-run");
  const text = await canvas.addAndMove("Text", -520, -150);
  const image = await canvas.addAndMove("FLUX1.1 [pro]", -160, -200);
  const video = await canvas.addAndMove("Runway Gen-4", 200, -120);
  const upscale = await canvas.addAndMove("Video Upscaler", 560, -60);
  await canvas.node(text).getByRole("textbox", { name: "Text" }).fill("a lighthouse at dusk");
  await canvas.connect(text, "text", image, "prompt");
  await canvas.connect(image, "image", video, "image");
  await canvas.connect(video, "video", upscale, "video");
  await expect(canvas.edges()).toHaveCount(3);
  await page.getByRole("textbox", { name: "Workflow name" }).fill("Lighthouse chain");
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();

  const started = page.waitForResponse(
    (response) => response.url().endsWith("/api/runs") && response.request().method() === "POST",
  );
  await page.getByRole("button", { name: "Run all" }).click();
  expect((await started).status()).toBe(202);
  // The first step is under way: close the tab.
  await expect(canvas.node(image).getByRole("button", { name: "Cancel" })).toBeVisible();
  await page.close();

  const next = await context.newPage();
  const again = new CanvasPage(next);
  await again.open();
  await next.getByRole("tab", { name: "Library" }).click();
  const folders = next.getByRole("region", { name: "Folders" });
  await folders.getByRole("button", { name: /^Unfiled/ }).click();
  await folders
    .getByRole("list", { name: "Workflows in this folder" })
    .getByRole("button", { name: "Lighthouse chain", exact: true })
    .click();
  // This tab restored the closed one's journal, whose run states were not saved: opening
  // the workflow asks first. The server kept the run's results, so nothing is lost.
  await next
    .getByRole("dialog", { name: "Unsaved changes" })
    .getByRole("button", { name: "Discard changes" })
    .click();
  for (const id of [image, video, upscale])
    await expect(again.node(id).locator(".status-pill")).toHaveText("Done", { timeout: 60_000 });
  await expect(again.node(image).locator(".node-output img").first()).toHaveAttribute(
    "src",
    /\/api\/media\/file\/.+\.png$/,
  );
  await expect(again.node(upscale).locator("video")).toHaveAttribute("src", /\/api\/media\/file\//);

  // Edit and save right away: the results the run wrote are not a conflicting edit.
  const saves: number[] = [];
  next.on("response", (response) => {
    if (/\/api\/workflows\/[^/]+$/.test(new URL(response.url()).pathname))
      if (["PUT", "PATCH"].includes(response.request().method())) saves.push(response.status());
  });
  await again.node(video).getByRole("textbox", { name: "Prompt" }).fill("a slow push-in");
  await next.keyboard.press("Control+s");
  await expect(next.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  await expect(next.getByRole("dialog")).toHaveCount(0);
  expect(saves.length).toBeGreaterThan(0);
  expect(saves.every((status) => status === 200)).toBe(true);
  await again.shot("server-run-reopened");
});
