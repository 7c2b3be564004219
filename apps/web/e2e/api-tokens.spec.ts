import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

const SHOWN_ONCE = "Copy this token now. You won't see it again.";

test.describe("personal API tokens", () => {
  test("create a token, see it once, use it from a script, revoke it", async ({
    page,
    context,
    baseURL,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("tokens");

    // The account menu, by keyboard: Enter opens it on its first item.
    const account = page.getByRole("button", { name: /^Account: / });
    await account.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("menuitem", { name: "API tokens…" })).toBeFocused();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "API tokens" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText("No API tokens yet.")).toBeVisible();

    await dialog.getByLabel("Token name").fill("E2E script");
    await dialog.getByRole("button", { name: "Create token" }).click();
    await expect(dialog.getByText(SHOWN_ONCE)).toBeVisible();
    const token = await dialog.getByLabel("New API token").inputValue();
    expect(token).toMatch(/^atl_/);
    await dialog.getByRole("button", { name: "Copy" }).click();
    await expect(canvas.toast("Token copied")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    const row = dialog.getByRole("row", { name: /E2E script/ });
    await expect(row).toContainText("Never");
    await canvas.shot("api-tokens-created");

    // A script uses it (from the test's Node side: no browser cookie anywhere).
    const headless = (path: string) =>
      fetch(new URL(path, baseURL), { headers: { authorization: `Bearer ${token}` } });
    const listed = await headless("/api/workflows");
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({ workflows: [], nextOffset: null });

    // Shown once: reopened, the dialog lists the token without its text, now used.
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();
    await account.click();
    await page.getByRole("menuitem", { name: "API tokens…" }).click();
    await expect(row).toBeVisible();
    await expect(row).not.toContainText("Never");
    await expect(dialog.getByText(SHOWN_ONCE)).toHaveCount(0);
    await expect(dialog.getByLabel("New API token")).toHaveCount(0);

    // Revoking asks first; then the script is refused.
    await row.getByRole("button", { name: "Revoke E2E script" }).click();
    const confirm = page.getByRole("dialog", { name: "Revoke API token?" });
    await confirm.getByRole("button", { name: "Revoke" }).click();
    await expect(canvas.toast("Revoked “E2E script”")).toBeVisible();
    await expect(dialog.getByText("No API tokens yet.")).toBeVisible();
    const refused = await headless("/api/workflows");
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: "Not authenticated" });
  });

  test("the API reference renders under the page's CSP", async ({ page }) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || /Content.Security.Policy/i.test(message.text()))
        problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    const answer = await page.goto("/api/docs");
    expect(answer?.headers()["content-security-policy"]).toContain("script-src 'self'");
    await expect(page.getByText("/api/workflows", { exact: true }).first()).toBeVisible();
    await expect(page.getByText("/api/tokens", { exact: true }).first()).toBeVisible();
    await page.screenshot({ path: "test-results/screens/api-docs.png" });
    expect(problems).toEqual([]);
  });
});
