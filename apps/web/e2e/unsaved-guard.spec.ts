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
    // After Cancel a reload still has the edits.
    await page.reload();
    await expect(canvas.node(text).getByRole("textbox", { name: "Text" })).toHaveValue("keep me");

    await page.getByRole("tab", { name: "Library" }).click();
    await page.getByRole("button", { name: "New workflow" }).click();
    await prompt(page).getByRole("button", { name: "Discard changes" }).click();
    await expect(canvas.nodes()).toHaveCount(0);
  });

  test("New workflow with Save keeps the edits in this browser's library first", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.add("Text");
    await page.getByRole("textbox", { name: "Workflow name" }).fill("Kept draft");
    await page.getByRole("tab", { name: "Library" }).click();
    await page.getByRole("button", { name: "New workflow" }).click();
    await prompt(page).getByRole("button", { name: "Save" }).click();
    await expect(canvas.nodes()).toHaveCount(0);
    await expect(page.getByRole("textbox", { name: "Workflow name" })).toHaveValue(
      "Untitled workflow",
    );
    // The saved one opens again from the library, without a question (nothing to lose).
    await page
      .getByRole("navigation", { name: "Library" })
      .getByRole("button", { name: /^Kept draft/ })
      .first()
      .click();
    await expect(prompt(page)).toHaveCount(0);
    await expect(canvas.nodes()).toHaveCount(1);
  });

  test("importing asks: Cancel keeps the edits, Save saves them, Discard imports over them", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    const text = await canvas.add("Text");
    await canvas.node(text).getByRole("textbox", { name: "Text" }).fill("mine");
    await page.getByRole("textbox", { name: "Workflow name" }).fill("Before import");
    const file = {
      name: "other.json",
      mimeType: "application/json",
      buffer: Buffer.from(
        JSON.stringify({ version: "1.0.0", metadata: { name: "Imported" }, nodes: [], edges: [] }),
      ),
    };
    const importFile = () => page.getByLabel("Import a workflow file").setInputFiles(file);
    await importFile();
    await prompt(page).getByRole("button", { name: "Cancel" }).click();
    await expect(canvas.node(text).getByRole("textbox", { name: "Text" })).toHaveValue("mine");
    await page.reload();
    await expect(canvas.node(text).getByRole("textbox", { name: "Text" })).toHaveValue("mine");

    await importFile();
    await prompt(page).getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("textbox", { name: "Workflow name" })).toHaveValue("Imported");
    await expect(canvas.nodes()).toHaveCount(0);
    await page.getByRole("tab", { name: "Library" }).click();
    await expect(
      page
        .getByRole("navigation", { name: "Library" })
        .getByRole("button", { name: /^Before import/ })
        .first(),
    ).toBeVisible();

    await page.getByRole("tab", { name: "Nodes" }).click();
    await canvas.add("Text");
    await importFile();
    await prompt(page).getByRole("button", { name: "Discard changes" }).click();
    await expect(canvas.nodes()).toHaveCount(0);
    await expect(page.getByRole("textbox", { name: "Workflow name" })).toHaveValue("Imported");
  });

  test("restoring a backup asks: Cancel keeps the edits, Discard restores it", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("guard-backup");
    await canvas.add("Text");
    await page.getByRole("textbox", { name: "Workflow name" }).fill("Backed up");
    await page.route("**/api/workflows", (route) =>
      route.fulfill({ status: 503, body: '{"error":"Service unavailable"}' }),
    );
    await page.keyboard.press("Control+s");
    await expect(
      canvas.toast("Failed to save workflow. An encrypted backup has been created locally."),
    ).toBeVisible();
    await page.unroute("**/api/workflows");
    await page.getByRole("tab", { name: "Library" }).click();
    await page.getByRole("button", { name: "New workflow" }).click();
    await prompt(page).getByRole("button", { name: "Discard changes" }).click();
    await page.getByRole("tab", { name: "Nodes" }).click();
    await canvas.add("Text");
    await canvas.add("Text");
    await page.getByRole("tab", { name: "Library" }).click();
    const backup = page.getByRole("region", { name: "Backups" }).getByRole("button", {
      name: /Backed up/,
    });
    await backup.click();
    await prompt(page).getByRole("button", { name: "Cancel" }).click();
    await expect(canvas.nodes()).toHaveCount(2);
    await backup.click();
    await prompt(page).getByRole("button", { name: "Discard changes" }).click();
    await expect(
      canvas.toast("Workflow restored from backup. Please save to persist changes."),
    ).toBeVisible();
    await expect(canvas.nodes()).toHaveCount(1);
  });

  test("signing out asks: Cancel stays signed in with the edits, Save saves then signs out", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("guard-signout");
    const text = await canvas.add("Text");
    await canvas.node(text).getByRole("textbox", { name: "Text" }).fill("draft");
    await page.getByRole("textbox", { name: "Workflow name" }).fill("Signed out later");
    const signOut = async () => {
      await page.getByRole("button", { name: /^Account:/ }).click();
      await page.getByRole("menuitem", { name: "Sign out" }).click();
    };
    await signOut();
    await prompt(page).getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("button", { name: /^Account:/ })).toBeVisible();
    await expect(canvas.node(text).getByRole("textbox", { name: "Text" })).toHaveValue("draft");

    await signOut();
    await prompt(page).getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    // It was saved to the account on the way out: it has a cloud address, and no edits left.
    await expect(page).toHaveURL(/\/w\/[\w-]+$/);
    await expect(page.locator(".dirty-dot")).toHaveCount(0);
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
