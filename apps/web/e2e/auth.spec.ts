import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

test.describe("returning from the identity provider", () => {
  test("/auth/callback goes on to the canvas by itself, signed in", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("callback");
    // What the provider's redirect does: a full page load of the callback route.
    await page.goto("/auth/callback");
    await expect(page.locator(".react-flow")).toBeVisible();
    await expect(page.getByText("Signing you in…")).toHaveCount(0);
    expect(new URL(page.url()).pathname).toBe("/");
    await expect(page.getByRole("button", { name: /^Account: / })).toBeVisible();
  });
});
