import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

const background = (page: import("@playwright/test").Page) =>
  page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

test.describe("themes", () => {
  test.use({ colorScheme: "light" });

  test("follow a light system, and Preferences can switch to dark and back", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    // No choice made: the stylesheet follows the system.
    await expect(page.locator("html")).not.toHaveAttribute("data-theme", /./);
    expect(await background(page)).toBe("rgb(245, 245, 247)");
    await expect(page.locator(".react-flow")).toHaveClass(/\blight\b/);
    await canvas.add("FLUX1.1 [pro]");
    await canvas.shot("theme-light");

    await page.getByRole("button", { name: "Preferences" }).click();
    const theme = page.getByRole("dialog", { name: "Preferences" }).getByLabel("Theme");
    await expect(theme).toHaveValue("system");
    await theme.selectOption("dark");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    expect(await background(page)).toBe("rgb(17, 17, 20)");
    await expect(page.locator(".react-flow")).toHaveClass(/\bdark\b/);

    // Kept in this browser: a reload stays dark although the system is light.
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await page.getByRole("button", { name: "Preferences" }).click();
    await page
      .getByRole("dialog", { name: "Preferences" })
      .getByLabel("Theme")
      .selectOption("system");
    await expect(page.locator("html")).not.toHaveAttribute("data-theme", /./);
    expect(await background(page)).toBe("rgb(245, 245, 247)");
  });
});

test.describe("a dark system", () => {
  test.use({ colorScheme: "dark" });

  test("opens dark", async ({ page }) => {
    await new CanvasPage(page).open();
    expect(await background(page)).toBe("rgb(17, 17, 20)");
    await expect(page.locator(".react-flow")).toHaveClass(/\bdark\b/);
  });
});
