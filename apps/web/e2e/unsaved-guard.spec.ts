import { expect, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

const prompt = (page: Page) => page.getByRole("dialog", { name: "Unsaved changes" });

test.describe("nothing replaces unsaved edits without asking", () => {
  test("New workflow asks Save / Discard / Cancel; Cancel keeps the edits, Discard starts afresh", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    const text = await canvas.add("Text");
    await canvas.node(text).getByRole("textbox", { name: "Text" }).fill("keep me");
    await page.getByRole("tab", { name: "Library" }).click();
    await page.getByRole("button", { name: "New workflow" }).click();
    await expect(prompt(page)).toBeVisible();
    await expect(prompt(page).getByRole("heading")).toHaveText(
      "Save changes to “Untitled workflow”?",
    );
    await canvas.shot("unsaved-guard");
    await prompt(page).getByRole("button", { name: "Cancel" }).click();
    await expect(prompt(page)).toBeHidden();
    await expect(canvas.node(text).getByRole("textbox", { name: "Text" })).toHaveValue("keep me");

    await page.getByRole("button", { name: "New workflow" }).click();
    await prompt(page).getByRole("button", { name: "Discard changes" }).click();
    await expect(canvas.nodes()).toHaveCount(0);
  });

  test("opening another workflow with Save saves first, then opens it", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("guard");
    await canvas.add("Text");
    await page.getByRole("textbox", { name: "Workflow name" }).fill("First");
    await page.keyboard.press("Control+s");
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
    await page.getByRole("tab", { name: "Library" }).click();
    await page.getByRole("button", { name: "New workflow" }).click();
    await page.getByRole("tab", { name: "Nodes" }).click();
    const second = await canvas.add("Text");
    await page.getByRole("textbox", { name: "Workflow name" }).fill("Second");
    await canvas.node(second).getByRole("textbox", { name: "Text" }).fill("not saved yet");

    await page.getByRole("tab", { name: "Library" }).click();
    await page
      .getByRole("navigation", { name: "Library" })
      .getByRole("button", { name: /^First/ })
      .first()
      .click();
    await prompt(page).getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("textbox", { name: "Workflow name" })).toHaveValue("First");
    await expect(page).toHaveURL(/\/w\/[^/]+$/);
    // The second one was saved on the way: it opens with its text.
    await page
      .getByRole("navigation", { name: "Library" })
      .getByRole("button", { name: /^Second/ })
      .first()
      .click();
    await expect(prompt(page)).toHaveCount(0);
    await expect(canvas.node(second).getByRole("textbox", { name: "Text" })).toHaveValue(
      "not saved yet",
    );
  });

  test("back with unsaved edits asks, and Cancel keeps the page and its address", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("guard-back");
    await canvas.add("Text");
    await page.keyboard.press("Control+s");
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
    const saved = page.url();
    await page.getByRole("tab", { name: "Library" }).click();
    await page.getByRole("button", { name: "New workflow" }).click();
    await page.getByRole("tab", { name: "Nodes" }).click();
    const fresh = await canvas.add("Text");
    await expect(page).not.toHaveURL(saved);
    await page.goBack();
    await expect(prompt(page)).toBeVisible();
    await prompt(page).getByRole("button", { name: "Cancel" }).click();
    await expect(canvas.node(fresh)).toBeVisible();
    await expect(page).not.toHaveURL(saved);
  });

  test("closing the tab with unsaved edits asks the browser's question", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.add("Text");
    const asked = page.waitForEvent("dialog");
    await page.close({ runBeforeUnload: true });
    const dialog = await asked;
    expect(dialog.type()).toBe("beforeunload");
    // Leaving anyway closes the tab.
    const closed = page.waitForEvent("close");
    await dialog.accept();
    await closed;
  });
});
