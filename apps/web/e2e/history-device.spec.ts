import { expect, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

const address = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};

test("a workflow kept on this device has versions too: preview one, restore it, reload", async ({
  page,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  const text = await canvas.add("Text");
  const prompt = canvas.node(text).getByRole("textbox", { name: "Text" });
  // Not saved yet: nothing to show a history of.
  await expect(page.getByRole("button", { name: "History", exact: true })).toBeDisabled();

  await prompt.fill("a lighthouse");
  await page.getByRole("textbox", { name: "Workflow name" }).fill("Harbour");
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  await expect.poll(() => address(page)).toMatch(/^\/local\/[\w-]+$/);
  const home = address(page);
  for (const words of ["a lighthouse in fog", "a lighthouse in a storm"]) {
    await prompt.fill(words);
    await expect(page.getByRole("status", { name: "Unsaved changes" })).toBeVisible();
    await page.keyboard.press("Control+s");
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  }

  await page.getByRole("button", { name: "History", exact: true }).click();
  const panel = page.getByRole("dialog", { name: "Version history" });
  const rows = panel.getByRole("listitem");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText("Version 3");
  await expect(rows.nth(0)).toContainText("1 node changed");
  await expect(rows.nth(2)).toContainText("1 node added");

  await rows.nth(2).getByRole("button", { name: "Preview" }).click();
  await expect.poll(() => address(page)).toBe(`${home}?v=1`);
  await expect(page.getByText("1 node differs from the current version (outlined)")).toBeVisible();
  await expect(canvas.node(text).getByRole("textbox", { name: "Text" })).toHaveValue(
    "a lighthouse",
  );
  await expect(canvas.node(text)).toHaveCSS("outline-style", "solid");

  await page.getByRole("button", { name: "Restore this version" }).click();
  await expect.poll(() => address(page)).toBe(home);
  await expect(canvas.node(text).getByRole("textbox", { name: "Text" })).toHaveValue(
    "a lighthouse",
  );
  await page.reload();
  await expect(canvas.node(text).getByRole("textbox", { name: "Text" })).toHaveValue(
    "a lighthouse",
  );
  await page.getByRole("button", { name: "History", exact: true }).click();
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toContainText("restored version 1");

  // A version this device does not have.
  await page.goto(`${home}?v=99`);
  await expect(page.getByRole("heading", { name: "Version not found" })).toBeVisible();
});
