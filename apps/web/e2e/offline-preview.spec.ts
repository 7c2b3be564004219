import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

// Tall enough for the video node's form and its result in one shot.
test.use({ viewport: { width: 1280, height: 1400 } });

/**
 * With no provider key the offline `local` provider runs a video node: its result is as long
 * and as large as the node asked for (8 s at 720p, 16:9 → 1280×720), and carries an
 * "Offline preview" badge whose link opens the Providers dialog.
 */
test("an offline video run honours duration and resolution and is badged as an offline preview", async ({
  page,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await canvas.signUp("offline-preview");
  const video = await canvas.add("Video");
  const node = canvas.node(video);
  await node.getByRole("textbox", { name: "Prompt" }).fill("a lighthouse in a storm");
  await node.getByLabel("Aspect ratio").selectOption("16:9");
  await node.getByLabel("Duration").selectOption("8s");
  await node.getByLabel("Resolution").selectOption("720p");
  await node.getByRole("button", { name: "Run", exact: true }).click();
  await expect(node.locator(".status-pill")).toHaveText("Done", { timeout: 60_000 });

  // The file is what was asked for, as the browser's player reads it.
  const player = node.locator(".node-output video");
  await expect(player).toHaveAttribute("src", /\/api\/media\/file\/.+\.webm$/);
  await expect
    .poll(() => player.evaluate((element: HTMLVideoElement) => element.readyState), {
      timeout: 20_000,
    })
    .toBeGreaterThanOrEqual(1);
  const facts = await player.evaluate((element: HTMLVideoElement) => ({
    duration: element.duration,
    width: element.videoWidth,
    height: element.videoHeight,
  }));
  expect(facts.width).toBe(1280);
  expect(facts.height).toBe(720);
  expect(facts.duration).toBeCloseTo(8, 2);

  // The badge says the result is a stand-in, and its link shows where runs go.
  const badge = node.getByRole("note");
  await expect(badge).toContainText("Offline preview", { timeout: 20_000 });
  await canvas.shot("offline-preview-badge");
  await badge.getByRole("button", { name: "Add a provider key" }).click();
  const dialog = page.getByRole("dialog", { name: "Providers" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(/offline/);
  await canvas.shot("offline-preview-providers");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  // Escape in the dialog left the node where it was.
  await expect(node).toBeVisible();
});
