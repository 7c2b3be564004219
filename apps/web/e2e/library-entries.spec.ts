import { expect, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

const LONG = "A workflow whose name goes on and on well past the sidebar's edge";

async function saveNamed(page: Page, name: string) {
  await page.getByRole("textbox", { name: "Workflow name" }).fill(name);
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
}

test("the library lists each workflow once with where it lives, searches, sorts, and keeps rows whole", async ({
  page,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  // Kept on this device first.
  await canvas.add("Text");
  await saveNamed(page, "Draft");
  await page.getByRole("tab", { name: "Library" }).click();
  const all = page.getByRole("region", { name: "All workflows" });
  await expect(all.getByRole("button", { name: /^Draft/ })).toContainText("This device");
  // Each row shows the canvas as it was saved.
  const picture = /^data:image\/(webp|png|jpeg);base64,/;
  await expect(
    all.getByRole("button", { name: /^Draft/ }).locator("img.entry-thumb"),
  ).toHaveAttribute("src", picture);

  // Signed in, the same workflow saved to the account is still one entry: in the cloud and
  // on this device, in sync.
  await canvas.signUp("library-once");
  await page.getByRole("tab", { name: "Nodes" }).click();
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  await page.getByRole("tab", { name: "Library" }).click();
  await expect(all.getByRole("button", { name: /^Draft/ })).toHaveCount(1);
  await expect(all.getByRole("button", { name: /^Draft/ })).toContainText(
    "Cloud · this device · in sync",
  );
  await expect(
    all.getByRole("button", { name: /^Draft/ }).locator("img.entry-thumb"),
  ).toHaveAttribute("src", picture);
  await expect(
    page.getByRole("region", { name: "Recent workflows" }).getByRole("button", { name: /^Draft/ }),
  ).toHaveCount(1);

  // A second workflow with a long name; search and order.
  await page.getByRole("button", { name: "New workflow" }).click();
  await page.getByRole("tab", { name: "Nodes" }).click();
  await canvas.add("Text");
  await saveNamed(page, LONG);
  await page.getByRole("tab", { name: "Library" }).click();
  await expect(all.getByRole("listitem")).toHaveCount(2);
  await canvas.shot("library-thumbnails");
  await all.getByRole("searchbox", { name: "Search workflows" }).fill("draf");
  await expect(all.getByRole("listitem")).toHaveCount(1);
  await expect(all.getByRole("listitem")).toContainText("Draft");
  await all.getByRole("searchbox", { name: "Search workflows" }).fill("nothing like it");
  await expect(all.getByText("No workflow has that name")).toBeVisible();
  await all.getByRole("searchbox", { name: "Search workflows" }).fill("");
  await expect(all.getByRole("listitem").first()).toContainText(LONG);
  await all.getByRole("combobox", { name: "Sort workflows" }).selectOption("name");
  await expect(all.getByRole("listitem").first()).toContainText(LONG);
  await expect(all.getByRole("listitem").nth(1)).toContainText("Draft");

  // A folder shows a workflow moved into it at once, and still after the next save.
  const folders = page.getByRole("region", { name: "Folders" });
  await folders.getByLabel("New folder name").fill("Boards");
  await folders.getByRole("button", { name: "Create" }).click();
  await folders.getByLabel(`Actions for ${LONG}`).click();
  await folders.getByLabel(`Move ${LONG} to`).selectOption({ label: "Boards" });
  await folders.getByRole("button", { name: "Boards (1)", exact: true }).click();
  const inFolder = folders.getByRole("list", { name: "Workflows in this folder" });
  await expect(inFolder.getByRole("button", { name: LONG, exact: true })).toBeVisible();
  await page.getByRole("tab", { name: "Nodes" }).click();
  await canvas.add("Text");
  // The save's answer, not its 1.5 s "Saved" notice, which a busy machine can miss.
  const saved = page.waitForResponse(
    (response) =>
      /\/api\/workflows\/[^/]+$/.test(new URL(response.url()).pathname) &&
      ["PUT", "PATCH"].includes(response.request().method()),
  );
  await page.keyboard.press("Control+s");
  expect((await saved).ok()).toBe(true);
  await expect(page.getByRole("status", { name: "Unsaved changes" })).toHaveCount(0);
  await page.getByRole("tab", { name: "Library" }).click();
  await folders.getByRole("button", { name: "Boards (1)", exact: true }).click();
  await expect(inFolder.getByRole("button", { name: LONG, exact: true })).toBeVisible();

  // At 1280 px every row shows its whole actions inside the sidebar; a long name ends in an
  // ellipsis with the full name as its tooltip.
  await folders.getByRole("button", { name: "All workflows" }).click();
  const sidebar = await page.locator(".sidebar").boundingBox();
  if (!sidebar) throw new Error("no sidebar");
  for (const name of [LONG, "Draft"]) {
    const menu = folders.getByLabel(`Actions for ${name}`);
    await expect(menu).toBeVisible();
    const box = await menu.boundingBox();
    expect(box && box.x + box.width <= sidebar.x + sidebar.width).toBe(true);
    const title = inFolder.getByRole("button", { name, exact: true });
    await expect(title).toHaveAttribute("title", name);
    expect((await title.boundingBox())?.width ?? 0).toBeGreaterThan(100);
  }
  expect(
    await page
      .locator(".sidebar")
      .evaluate((element) => element.scrollWidth <= element.clientWidth),
  ).toBe(true);
  await folders.getByLabel(`Actions for ${LONG}`).click();
  for (const action of [`Move ${LONG} to`, `Copy ${LONG} to`]) {
    const box = await folders.getByLabel(action).boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 1280).toBe(true);
  }
  await expect(folders.getByRole("button", { name: `Delete ${LONG}` })).toBeVisible();
  await canvas.shot("library-rows");
});
