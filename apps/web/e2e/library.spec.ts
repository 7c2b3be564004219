import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

test("folders: create (reserved and invalid names refused), rename, move, copy, fork, delete", async ({
  page,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await canvas.signUp();

  await canvas.add("Text");
  await page.getByRole("textbox", { name: "Workflow name" }).fill("Poster");
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();

  await page.getByRole("tab", { name: "Library" }).click();
  const folders = page.getByRole("region", { name: "Folders" });
  const name = folders.getByLabel("New folder name");
  await name.fill("Trash");
  await folders.getByRole("button", { name: "Create" }).click();
  await expect(canvas.toast("This folder name is reserved")).toBeVisible();
  await name.fill("a/b");
  await folders.getByRole("button", { name: "Create" }).click();
  await expect(canvas.toast("Folder name contains invalid characters")).toBeVisible();
  await name.fill("Moodboards");
  await folders.getByRole("button", { name: "Create" }).click();
  await expect(folders.getByRole("button", { name: /^Moodboards/ })).toBeVisible();

  await folders.getByRole("button", { name: "Rename folder Moodboards" }).click();
  await folders.getByLabel("Rename Moodboards").fill("Boards");
  await folders.getByRole("button", { name: "OK" }).click();
  await expect(folders.getByRole("button", { name: /^Boards \(0\)/ })).toBeVisible();

  await folders.getByLabel("Actions for Poster").first().click();
  await folders.getByLabel("Move Poster to").selectOption({ label: "Boards" });
  await expect(folders.getByRole("button", { name: /^Boards \(1\)/ })).toBeVisible();
  await folders.getByLabel("Actions for Poster").first().click();
  await folders.getByLabel("Copy Poster to").selectOption({ label: "Unfiled" });
  await folders.getByRole("button", { name: "Unfiled" }).click();
  await expect(
    folders
      .getByRole("list", { name: "Workflows in this folder" })
      .getByRole("button", { name: "Poster", exact: true }),
  ).toBeVisible();
  await folders.getByRole("button", { name: "All workflows" }).click();
  await folders.getByLabel("Actions for Poster").first().click();
  await folders.getByRole("button", { name: "Fork Poster" }).first().click();
  await expect(folders.getByRole("button", { name: "Poster (fork)", exact: true })).toBeVisible();
  await canvas.shot("16-folders");

  // Deleting asks first; Cancel keeps the folder.
  await folders.getByRole("button", { name: "Delete folder Boards" }).click();
  const askFolder = page.getByRole("dialog", { name: "Delete folder?" });
  await expect(askFolder).toContainText("“Boards” will be deleted. Its workflows stay, unfiled.");
  await askFolder.getByRole("button", { name: "Cancel" }).click();
  await expect(askFolder).toHaveCount(0);
  await expect(folders.getByRole("button", { name: /^Boards/ })).toHaveCount(1);
  await folders.getByRole("button", { name: "Delete folder Boards" }).click();
  await askFolder.getByRole("button", { name: "Delete" }).click();
  await expect(folders.getByRole("button", { name: /^Boards/ })).toHaveCount(0);
  // Its workflow stays, unfiled.
  await folders.getByRole("button", { name: "Unfiled" }).click();
  await expect(
    folders
      .getByRole("list", { name: "Workflows in this folder" })
      .getByRole("button", { name: "Poster", exact: true }),
  ).toHaveCount(2);
});

test("deleting a workflow asks first, and the open one stays on the canvas as unsaved work", async ({
  page,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await canvas.signUp("delete");
  await canvas.add("Text");
  await page.getByRole("textbox", { name: "Workflow name" }).fill("Doomed");
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  await page.getByRole("tab", { name: "Library" }).click();
  const recent = page.getByRole("region", { name: "Recent workflows" });
  await expect(recent.getByRole("button", { name: /Doomed/ })).toBeVisible();
  const folders = page.getByRole("region", { name: "Folders" });

  await folders.getByLabel("Actions for Doomed").first().click();
  await folders.getByRole("button", { name: "Delete Doomed" }).click();
  const ask = page.getByRole("dialog", { name: "Delete workflow?" });
  await expect(ask).toContainText(
    "“Doomed” and its saved media will be deleted. This cannot be undone.",
  );
  await page.keyboard.press("Escape");
  await expect(ask).toHaveCount(0);
  await expect(folders.getByRole("button", { name: "Doomed", exact: true })).toBeVisible();

  await folders.getByLabel("Actions for Doomed").first().click();
  await folders.getByRole("button", { name: "Delete Doomed" }).click();
  await ask.getByRole("button", { name: "Delete" }).click();
  await expect(folders.getByRole("button", { name: "Doomed", exact: true })).toHaveCount(0);
  await expect(recent.getByRole("button", { name: /Doomed/ })).toHaveCount(0);
  // The canvas still holds it, unsaved; a save makes it a workflow again.
  await expect(canvas.nodes()).toHaveCount(1);
  await expect(page.getByRole("status", { name: "Unsaved changes" })).toBeVisible();
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  await expect(folders.getByRole("button", { name: "Doomed", exact: true })).toBeVisible();
});
