import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";
import { type CaughtMail, E2E_ADMIN_EMAIL, linkIn, mailTo } from "./mail.ts";

const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "staple battery horse";

test("verification mail makes an ADMIN_EMAILS account an admin; a forgotten password is reset by mail", async ({
  page,
  request,
  browser,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await page.getByRole("button", { name: "Sign in" }).click();
  await page
    .getByRole("dialog", { name: "Sign in" })
    .getByRole("button", { name: "Create an account" })
    .click();
  const form = page.getByRole("dialog", { name: "Create an account" });
  await form.getByLabel("Email").fill(E2E_ADMIN_EMAIL);
  await form.getByLabel("Password").fill(PASSWORD);
  await form.getByRole("button", { name: "Create account" }).click();
  const account = page.getByRole("button", { name: `Account: ${E2E_ADMIN_EMAIL}` });
  await expect(account).toBeVisible();
  await expect(account).toHaveAttribute("title", E2E_ADMIN_EMAIL);

  // The verification mail arrives; its link verifies the address and makes it an admin.
  await expect.poll(async () => (await mailTo(request, E2E_ADMIN_EMAIL)).length).toBe(1);
  const verification = (await mailTo(request, E2E_ADMIN_EMAIL))[0] as CaughtMail;
  expect(verification.subject).toBe("Verify your email for Atelier");
  await page.goto(linkIn(verification));
  await expect.poll(() => new URL(page.url()).pathname).toBe("/");
  await expect(account).toHaveAttribute("title", `${E2E_ADMIN_EMAIL} (admin)`);

  // The admin page, from the account menu: accounts with a one-time reset link each.
  await account.click();
  await page.getByRole("menuitem", { name: "Admin" }).click();
  await expect(page.getByRole("heading", { name: "Admin", exact: true })).toBeVisible();
  const users = page.getByRole("region", { name: "Users" });
  await expect(users.getByRole("cell", { name: E2E_ADMIN_EMAIL, exact: true })).toBeVisible();
  await page
    .getByRole("region", { name: "Invitations" })
    .getByRole("button", { name: "Create invitation" })
    .click();
  await expect(page.getByRole("textbox", { name: "Invitation link" })).toHaveValue(
    /\/invite\/[\w-]+$/,
  );
  // The instance's health: the all-in-one server works its own queue.
  const health = page.getByRole("region", { name: "Instance health" });
  await expect(health.getByText(/^\d+ queued · \d+ running/)).toBeVisible();
  await expect(health.getByText(/\(pid \d+, \d+ at once\)/)).toBeVisible();
  await expect(page.getByRole("region", { name: "Jobs" }).getByRole("heading")).toHaveText("Jobs");
  // Each account's own quotas and budgets.
  await users.getByRole("button", { name: `Limits for ${E2E_ADMIN_EMAIL}` }).click();
  const limits = page.getByRole("dialog", { name: `Limits for ${E2E_ADMIN_EMAIL}` });
  await limits.getByLabel("Daily budget").fill("3.5");
  await limits.getByRole("button", { name: "Save limits" }).click();
  await expect(limits.getByRole("status")).toHaveText("Limits saved");
  await limits.getByRole("button", { name: "Close" }).click();
  await canvas.shot("admin-page");
  // The invitation's link opens a sign-up page; the account is made and signed in.
  const invitation = await page.getByRole("textbox", { name: "Invitation link" }).inputValue();
  const guest = await browser.newContext();
  const guestPage = await guest.newPage();
  await guestPage.goto(invitation);
  await expect(
    guestPage.getByRole("heading", { name: "You are invited to Atelier" }),
  ).toBeVisible();
  await guestPage.getByLabel("Email").fill(`invited-${Date.now()}@example.com`);
  await guestPage.getByLabel("Password").fill(PASSWORD);
  await guestPage.getByRole("button", { name: "Create account" }).click();
  await expect(guestPage.getByRole("button", { name: /^Account: invited-/ })).toBeVisible();
  // Disabling that account ends its session; enabling lets it back.
  await page.reload();
  const invitedRow = users.getByRole("row", { name: /invited-/ });
  await invitedRow.getByRole("button", { name: /^Disable invited-/ }).click();
  await expect(invitedRow.getByRole("button", { name: /^Enable invited-/ })).toBeVisible();
  await guestPage.reload();
  await expect(guestPage.getByRole("button", { name: "Sign in" })).toBeVisible();
  await invitedRow.getByRole("button", { name: /^Enable invited-/ }).click();
  await expect(invitedRow.getByRole("button", { name: /^Disable invited-/ })).toBeVisible();
  await guest.close();
  await page.getByRole("link", { name: "Atelier" }).click();

  // Signed out, "Forgot password?" mails a link; it opens the reset page.
  await account.click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await page.getByRole("button", { name: "Sign in" }).click();
  const signIn = page.getByRole("dialog", { name: "Sign in" });
  await signIn.getByRole("button", { name: "Forgot password?" }).click();
  const forgot = page.getByRole("dialog", { name: "Reset your password" });
  await forgot.getByLabel("Email").fill(E2E_ADMIN_EMAIL);
  await forgot.getByRole("button", { name: "Send link" }).click();
  await expect(forgot.getByRole("status")).toHaveText(
    "If an account has this address, a link to choose a new password is on its way. It works for an hour.",
  );
  await expect.poll(async () => (await mailTo(request, E2E_ADMIN_EMAIL)).length).toBe(2);
  const reset = (await mailTo(request, E2E_ADMIN_EMAIL))[1] as CaughtMail;
  expect(reset.subject).toBe("Reset your Atelier password");
  await page.goto(linkIn(reset));
  await expect.poll(() => new URL(page.url()).pathname).toBe("/reset-password");
  await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();
  await canvas.shot("reset-password");

  // Two different passwords are refused; the same twice sets it.
  await page.getByLabel("New password").fill(NEW_PASSWORD);
  await page.getByLabel("The same again").fill("something else entirely");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByRole("alert")).toHaveText("The two passwords are not the same");
  await page.getByLabel("The same again").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByRole("status")).toHaveText("Your password is changed. Sign in with it.");

  // The link works once.
  await page.reload();
  await page.getByLabel("New password").fill("yet another battery");
  await page.getByLabel("The same again").fill("yet another battery");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "This reset link is not valid any more (used, expired or cut short). Ask for a new one.",
  );

  // The old password no longer signs in; the new one does.
  await page.getByRole("link", { name: "Back to the canvas" }).click();
  await page.getByRole("button", { name: "Sign in" }).click();
  await signIn.getByLabel("Email").fill(E2E_ADMIN_EMAIL);
  await signIn.getByLabel("Password").fill(PASSWORD);
  await signIn.getByRole("button", { name: "Sign in" }).click();
  await expect(signIn.getByRole("alert")).toHaveText("Invalid email or password");
  await signIn.getByLabel("Password").fill(NEW_PASSWORD);
  await signIn.getByRole("button", { name: "Sign in" }).click();
  await expect(account).toBeVisible();
});
