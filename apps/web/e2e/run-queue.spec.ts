import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

test("the queue panel pauses, reorders and resumes runs, and cancels them all; the run history retries one", async ({
  page,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await canvas.signUp("run-queue");
  // text → image → video, and the same text → a second image model.
  const text = await canvas.addAndMove("Text", -420, -150);
  const image = await canvas.addAndMove("FLUX1.1 [pro]", -60, -260);
  const video = await canvas.addAndMove("Runway Gen-4", 300, -180);
  const other = await canvas.addAndMove("Seedream 4", -60, 120);
  await canvas.node(text).getByRole("textbox", { name: "Text" }).fill("a lighthouse");
  await canvas.connect(text, "text", image, "prompt");
  await canvas.connect(image, "image", video, "image");
  await canvas.connect(text, "text", other, "prompt");
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();

  const runs = page.getByRole("region", { name: "Runs" });
  const entries = runs.getByRole("list", { name: "Queued runs" }).getByRole("listitem");

  // Paused: the running node finishes, the rest waits; a new run queues behind.
  await canvas.node(video).getByRole("button", { name: "Run to here" }).click();
  await runs.getByRole("button", { name: "Pause queue" }).click();
  await expect(runs.getByRole("heading", { name: "Runs · paused" })).toBeVisible();
  await canvas.node(other).getByRole("button", { name: "Run to here" }).click();
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(0)).toContainText("FLUX1.1 [pro] → Runway Gen-4");
  await expect(entries.nth(1)).toContainText("Seedream 4");
  await expect(canvas.node(video).locator(".status-pill")).not.toHaveText("Done");

  // The second moves to the front; resumed, everything runs.
  await runs.getByRole("button", { name: "Move run 2 up" }).click();
  await expect(entries.nth(0)).toContainText("Seedream 4");
  await runs.getByRole("button", { name: "Resume queue" }).click();
  await expect(entries).toHaveCount(0, { timeout: 60_000 });
  for (const id of [image, video, other])
    await expect(canvas.node(id).locator(".status-pill")).toHaveText("Done");

  // Cancel all: with a new prompt both runs have work; paused, they wait, then both go.
  await canvas.node(text).getByRole("textbox", { name: "Text" }).fill("a lighthouse in a storm");
  await canvas.node(video).getByRole("button", { name: "Run to here" }).click();
  await runs.getByRole("button", { name: "Pause queue" }).click();
  await canvas.node(other).getByRole("button", { name: "Run to here" }).click();
  await expect(entries).toHaveCount(2);
  await runs.getByRole("button", { name: "Cancel all" }).click();
  await expect(entries).toHaveCount(0);
  await runs.getByRole("button", { name: "Resume queue" }).click();
  await expect(runs).toHaveCount(0);

  // The run history lists all four; the newest (cancelled) is retried there and completes.
  await page.getByRole("button", { name: "Runs", exact: true }).click();
  const history = page.getByRole("dialog", { name: "Run history" });
  const rows = history.getByRole("row");
  await expect(rows).toHaveCount(5);
  await expect(rows.nth(1)).toContainText("cancelled");
  await rows.nth(1).getByRole("button", { name: "Retry" }).click();
  await expect(rows.nth(1)).toContainText("completed", { timeout: 60_000 });
  await rows.nth(1).getByRole("button").first().click();
  const details = history.getByRole("region", { name: "Run details" });
  await expect(details.getByRole("link").first()).toHaveAttribute("href", /\/api\/media\/file\//);
  await canvas.shot("run-queue-history");
});
