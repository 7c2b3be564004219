import { expect, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

/** Opens the canvas and its Preferences dialog; returns the desktop notifications toggle. */
async function openToggle(page: Page) {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await page.getByRole("button", { name: "Preferences" }).click();
  const preferences = page.getByRole("dialog", { name: "Preferences" });
  const toggle = preferences.getByLabel("Desktop notifications", { exact: true });
  await expect(toggle).not.toBeChecked(); // off by default (SPEC §4)
  return { canvas, preferences, toggle };
}

test.describe("desktop notifications (SPEC §4)", () => {
  test("permission granted: enabling keeps the setting on", async ({ page, context }) => {
    await context.grantPermissions(["notifications"]);
    const { canvas, preferences, toggle } = await openToggle(page);
    await toggle.check();
    // Asked after the app's own request, so answered after it too.
    expect(await page.evaluate(() => Notification.requestPermission())).toBe("granted");
    await expect(toggle).toBeChecked();
    await expect(canvas.toast("Desktop notifications are off")).toHaveCount(0);
    await preferences.getByRole("button", { name: "Done" }).click();

    // Still on after the permission answer and a reload.
    await page.reload();
    await expect(page.locator(".react-flow")).toBeVisible();
    await page.getByRole("button", { name: "Preferences" }).click();
    await expect(
      page
        .getByRole("dialog", { name: "Preferences" })
        .getByLabel("Desktop notifications", { exact: true }),
    ).toBeChecked();
  });

  test("permission denied: the setting turns back off and says why", async ({ browser }) => {
    // Without a grant, headless Chromium refuses notification permission by itself (no prompt),
    // so no override of Notification.requestPermission is needed: this is the browser's denial.
    const context = await browser.newContext({ permissions: [] });
    const page = await context.newPage();
    const { canvas, toggle } = await openToggle(page);
    expect(await page.evaluate(() => Notification.permission)).toBe("denied");
    await toggle.click();
    await expect(canvas.toast("the browser refused permission")).toBeVisible();
    await expect(toggle).not.toBeChecked();
    await canvas.shot("notifications-denied");
    await context.close();
  });
});
