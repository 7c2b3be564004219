import { expect, test } from "@playwright/test";
import { scan } from "./axe.ts";
import { CanvasPage } from "./canvas-page.ts";

for (const scheme of ["dark", "light"] as const)
  test.describe(`${scheme} theme`, () => {
    test.use({ colorScheme: scheme });

    test("the editor with nodes, wires and the palette", async ({ page }) => {
      const canvas = new CanvasPage(page);
      await canvas.open();
      await scan(page, `${scheme} empty editor`);
      const text = await canvas.add("Text");
      const flux = await canvas.addAndMove("FLUX1.1 [pro]", 420, 0);
      await canvas.connect(text, "text", flux, "prompt");
      await canvas.addAndMove("Video", 420, 320);
      await scan(page, `${scheme} editor`);
    });
  });

test("the library, the account's dialogs and sign-in", async ({ page }) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await page.getByRole("button", { name: "Preferences" }).click();
  await expect(page.getByRole("dialog", { name: "Preferences" })).toBeVisible();
  await scan(page, "Preferences dialog");
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("dialog", { name: "Sign in" })).toBeVisible();
  await scan(page, "Sign in dialog");
  await page.keyboard.press("Escape");

  await canvas.signUp("a11y");
  await page.getByRole("button", { name: /^Account: / }).click();
  await page.getByRole("menuitem", { name: "Providers…" }).click();
  await expect(page.getByRole("dialog", { name: "Providers" })).toBeVisible();
  await scan(page, "Providers dialog");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: /^Account: / }).click();
  await page.getByRole("menuitem", { name: "API tokens…" }).click();
  await expect(page.getByRole("dialog", { name: "API tokens" })).toBeVisible();
  await scan(page, "API tokens dialog");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: /^Account: / }).click();
  await page.getByRole("menuitem", { name: "Usage…" }).click();
  await expect(page.getByRole("dialog", { name: /Usage/ })).toBeVisible();
  await scan(page, "Usage dialog");
  await page.keyboard.press("Escape");

  await page.getByRole("tab", { name: "Library" }).click();
  await expect(page.getByRole("region", { name: "Folders" })).toBeVisible();
  await scan(page, "library");
});
