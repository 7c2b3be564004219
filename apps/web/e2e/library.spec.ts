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

  await folders.getByLabel("Move Poster to").selectOption({ label: "Boards" });
  await expect(folders.getByRole("button", { name: /^Boards \(1\)/ })).toBeVisible();
  await folders.getByLabel("Copy Poster to").selectOption({ label: "Unfiled" });
  await folders.getByRole("button", { name: "Unfiled" }).click();
  await expect(
    folders
      .getByRole("list", { name: "Workflows in this folder" })
      .getByRole("button", { name: "Poster", exact: true }),
  ).toBeVisible();
  await folders.getByRole("button", { name: "All workflows" }).click();
  await folders.getByRole("button", { name: "Fork Poster" }).first().click();
  await expect(folders.getByRole("button", { name: "Poster (fork)", exact: true })).toBeVisible();
  await canvas.shot("16-folders");

  await folders.getByRole("button", { name: "Delete folder Boards" }).click();
  await expect(folders.getByRole("button", { name: /^Boards/ })).toHaveCount(0);
  // Its workflow stays, unfiled.
  await folders.getByRole("button", { name: "Unfiled" }).click();
  await expect(
    folders
      .getByRole("list", { name: "Workflows in this folder" })
      .getByRole("button", { name: "Poster", exact: true }),
  ).toHaveCount(2);
});
