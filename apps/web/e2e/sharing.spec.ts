import { type Browser, expect, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

/** A fresh browser context (another person) on the same server. */
async function person(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ ...(baseURL ? { baseURL } : {}) });
  return context.newPage();
}

/** Creates a link with the role in the open Share dialog; its address. */
async function createLink(page: Page, role: "view" | "edit"): Promise<string> {
  const dialog = page.getByRole("dialog", { name: "Share" });
  await dialog.getByLabel("Role").selectOption(role);
  await dialog.getByRole("button", { name: "Create link" }).click();
  const field = dialog.getByLabel(`${role} link`, { exact: true });
  await expect(field).toHaveCount(1);
  return field.inputValue();
}

test("share links: a view link shows the canvas read-only, an edit link lets another account save, revoking makes both 404", async ({
  page,
  browser,
  baseURL,
}) => {
  const owner = new CanvasPage(page);
  await owner.open();
  await owner.signUp("share-owner");
  const text = await owner.add("Text");
  await owner.node(text).getByRole("textbox", { name: "Text" }).fill("a lighthouse at dusk");
  await page.getByRole("textbox", { name: "Workflow name" }).fill("Shared lighthouse");
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();

  await page.getByRole("button", { name: "Share", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Share" });
  await expect(dialog.getByText("No share links yet.")).toBeVisible();
  const viewLink = await createLink(page, "view");
  const editLink = await createLink(page, "edit");
  expect(viewLink).toMatch(/\/s\/[A-Za-z0-9_-]{32}$/);
  await owner.shot("share-dialog");
  await dialog.getByRole("button", { name: "Done" }).click();

  // A stranger, signed out, through the view link: the canvas, read-only.
  const strangerPage = await person(browser, baseURL);
  const stranger = new CanvasPage(strangerPage);
  await strangerPage.goto(viewLink);
  await expect(strangerPage.getByText("View only")).toBeVisible();
  await expect(stranger.node(text)).toBeVisible();
  await expect(stranger.node(text).getByRole("textbox", { name: "Text" })).toHaveValue(
    "a lighthouse at dusk",
  );
  await expect(strangerPage).toHaveTitle("Shared lighthouse — Atelier");
  await expect(strangerPage.getByRole("button", { name: "Save" })).toHaveCount(0);
  await expect(strangerPage.getByRole("tab", { name: "Nodes" })).toBeHidden();
  // Dragging the node pans the view instead: its place in the workflow stays.
  const placed = () =>
    stranger.node(text).evaluate((element) => (element as HTMLElement).style.transform);
  const before = await placed();
  await stranger.drag(text, 200, 120);
  expect(await placed()).toBe(before);
  await stranger.shot("share-view-only");

  // A second account through the edit link adds a node and saves into the owner's workflow.
  const editorPage = await person(browser, baseURL);
  const editor = new CanvasPage(editorPage);
  await editor.open();
  await editor.signUp("share-editor");
  await editorPage.goto(editLink);
  await expect(editorPage.getByText("Shared with you · can edit")).toBeVisible();
  await expect(editor.node(text)).toBeVisible();
  const added = await editor.add("Text");
  await editor.node(added).getByRole("textbox", { name: "Text" }).fill("added through the link");
  // The edit is taken (the shared workflow's opening has settled) before saving it.
  await expect(editorPage.getByRole("status", { name: "Unsaved changes" })).toBeVisible();
  await expect(editor.node(added).getByRole("textbox", { name: "Text" })).toHaveValue(
    "added through the link",
  );
  await editorPage.keyboard.press("Control+s");
  await expect(editorPage.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();

  // The owner's canvas follows the save (realtime), with the editor's node in it.
  await expect(owner.node(added)).toBeVisible();
  await expect(owner.node(added).getByRole("textbox", { name: "Text" })).toHaveValue(
    "added through the link",
  );

  // Revoked: both links open nothing, at once.
  await page.getByRole("button", { name: "Share", exact: true }).click();
  for (const role of ["view", "edit"]) {
    await dialog.getByRole("button", { name: `Revoke ${role} link` }).click();
    await expect(dialog.getByLabel(`${role} link`, { exact: true })).toHaveCount(0);
  }
  await expect(dialog.getByText("No share links yet.")).toBeVisible();
  for (const [visitor, link] of [
    [strangerPage, viewLink],
    [editorPage, editLink],
  ] as const) {
    await visitor.goto(link);
    await expect(
      visitor.getByRole("heading", { name: "Link not found or no longer shared" }),
    ).toBeVisible();
  }
  const token = editLink.split("/s/")[1] as string;
  const direct = await editorPage.request.get(`/api/shares/${token}`);
  expect(direct.status()).toBe(404);
});
