import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";
import {
  importWorkflow,
  leftNothing,
  MARKUP,
  PARTS,
  pressAndCheck,
  watch,
} from "./hostile-workflow.ts";
import { installCanary, unsafeAttributes } from "./xss.ts";

test.describe("a public workflow of hostile addresses runs no script", () => {
  test.use({ viewport: { width: 1600, height: 1000 } });
  test.beforeEach(({ page }) => installCanary(page));

  test("saved to the cloud, filed in a folder named with markup and opened from the library, it stays inert", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    const seen = watch(page);
    await canvas.open();
    await canvas.signUp("xss-cloud");
    const galleries = PARTS[1] as (typeof PARTS)[number];
    await importWorkflow(page, galleries);
    await expect(canvas.nodes()).toHaveCount(galleries.nodes.length);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible({
      timeout: 30_000,
    });

    // Folder names refuse < > : " / \ | ? *, so the markup is what is left: entities and
    // attribute breaks.
    const folderName = "&lt;img src=x onerror=window.__xss++&gt; 'onmouseover=window.__xss++ x='";
    await page.getByRole("tab", { name: "Library" }).click();
    const folders = page.getByRole("region", { name: "Folders" });
    await folders.getByLabel("New folder name").fill(folderName);
    await folders.getByRole("button", { name: "Create" }).click();
    await expect(
      folders.getByRole("button", { name: `${folderName} (0)`, exact: true }),
    ).toBeVisible();
    await folders.getByLabel(`Actions for ${MARKUP}`).click();
    await folders.getByLabel(`Move ${MARKUP} to`).selectOption({ label: folderName });
    await folders.getByRole("button", { name: `${folderName} (1)`, exact: true }).click();
    const listed = folders.getByRole("list", { name: "Workflows in this folder" });
    await expect(listed.getByRole("button", { name: MARKUP, exact: true })).toBeVisible();
    expect.soft(await unsafeAttributes(page)).toEqual([]);

    await listed.getByRole("button", { name: MARKUP, exact: true }).click();
    await pressAndCheck(
      page,
      galleries.nodes.map((node) => (node as { id: string }).id),
      seen,
    );
    await leftNothing(page, seen);
  });
});
