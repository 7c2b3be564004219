import { expect, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

const pathOf = (page: Page) => new URL(page.url()).pathname;

/** Saves with Ctrl+S and waits for "Saved". */
async function save(page: Page) {
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
}

test("version history: three saves, preview version 1 with its changed node outlined, restore it", async ({
  page,
  browser,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await canvas.signUp("history");
  const text = await canvas.add("Text");
  await canvas.add("Text");
  const prompt = canvas.node(text).getByRole("textbox", { name: "Text" });

  // Version 1 (the first save), then three more with other prompts.
  await prompt.fill("a lighthouse");
  await page.getByRole("textbox", { name: "Workflow name" }).fill("Harbour");
  await save(page);
  await expect.poll(() => pathOf(page)).toMatch(/^\/w\/[\w-]+$/);
  const address = pathOf(page);
  for (const words of ["a lighthouse at dusk", "a lighthouse in fog", "a lighthouse in a storm"]) {
    await prompt.fill(words);
    await expect(page.getByRole("status", { name: "Unsaved changes" })).toBeVisible();
    await save(page);
  }

  // The History panel lists versions 4…1, newest first, with what each changed.
  await page.getByRole("button", { name: "History", exact: true }).click();
  const panel = page.getByRole("dialog", { name: "Version history" });
  const rows = panel.getByRole("listitem");
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toContainText("Version 4");
  await expect(rows.nth(0)).toContainText("Current");
  await expect(rows.nth(0)).toContainText("1 node changed");
  await expect(rows.nth(3)).toContainText("Version 1");
  await expect(rows.nth(3)).toContainText("2 nodes added");
  await canvas.shot("history-panel");

  // Preview version 1: read-only, its prompt, the changed node outlined and the other not.
  await rows.nth(3).getByRole("button", { name: "Preview" }).click();
  await expect.poll(() => new URL(page.url()).search).toBe("?v=1");
  await expect(page.getByText("Version 1 ·")).toBeVisible();
  await expect(page.getByText("1 node differs from the current version (outlined)")).toBeVisible();
  await expect(canvas.node(text).getByRole("textbox", { name: "Text" })).toHaveValue(
    "a lighthouse",
  );
  await expect(canvas.node(text)).toHaveCSS("outline-style", "solid");
  const other = (await canvas.nodeIds()).find((id) => id !== text) as string;
  await expect(canvas.node(other)).toHaveCSS("outline-style", "none");
  // Nothing there can be changed: no palette, no dragging, no deleting.
  await expect(canvas.palette()).toHaveCount(0);
  await canvas.select([text]);
  await page.keyboard.press("Delete");
  await expect(canvas.nodes()).toHaveCount(2);
  await canvas.shot("history-preview");

  // The address opens the version on a reload too.
  await page.reload();
  await expect(canvas.node(text).getByRole("textbox", { name: "Text" })).toHaveValue(
    "a lighthouse",
  );

  // Restore: the workflow is back at version 1's prompt, and stays so after a reload.
  await page.getByRole("button", { name: "Restore this version" }).click();
  await expect.poll(() => `${pathOf(page)}${new URL(page.url()).search}`).toBe(address);
  await expect(canvas.node(text).getByRole("textbox", { name: "Text" })).toHaveValue(
    "a lighthouse",
  );
  await page.reload();
  await expect(canvas.node(text).getByRole("textbox", { name: "Text" })).toHaveValue(
    "a lighthouse",
  );
  await page.getByRole("button", { name: "History", exact: true }).click();
  await expect(rows).toHaveCount(5);
  await expect(rows.nth(0)).toContainText("restored version 1");
  for (const [index, version] of [4, 3, 2, 1].entries())
    await expect(rows.nth(index + 1)).toContainText(`Version ${version}`);

  // Naming a version.
  await rows.nth(2).getByRole("button", { name: "Name this version" }).click();
  await panel.getByRole("textbox", { name: "Version name" }).fill("Foggy");
  await panel.getByRole("button", { name: "Save name" }).click();
  await expect(rows.nth(2)).toContainText("Foggy");

  // Another account: that version is not found for them.
  const stranger = await browser.newContext();
  const theirs = await stranger.newPage();
  const theirCanvas = new CanvasPage(theirs);
  await theirCanvas.open();
  await theirCanvas.signUp("history-stranger");
  await theirs.goto(`${address}?v=1`);
  await expect(
    theirs.getByRole("heading", { name: "Version not found or not shared with you" }),
  ).toBeVisible();
  await stranger.close();
});
