import { expect, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

const NOT_FOUND = "Workflow not found or not shared with you";

const pathOf = (page: Page) => new URL(page.url()).pathname;

/** Names the open workflow, saves it and answers the address it then has. */
async function saveAs(page: Page, name: string, address: RegExp): Promise<string> {
  await page.getByRole("textbox", { name: "Workflow name" }).fill(name);
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  await expect.poll(() => pathOf(page)).toMatch(address);
  return pathOf(page);
}

/** The canvas shows the workflow `name` with `count` nodes, under its address and title. */
async function expectOpen(canvas: CanvasPage, address: string, name: string, count: number) {
  await expect.poll(() => pathOf(canvas.page)).toBe(address);
  await expect(canvas.page.getByRole("textbox", { name: "Workflow name" })).toHaveValue(name);
  await expect(canvas.nodes()).toHaveCount(count);
  await expect(canvas.page).toHaveTitle(`${name} — Atelier`);
}

test("cloud workflows live at /w/:id: library opens, reload, back and forward, not found", async ({
  page,
  browser,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await canvas.signUp("urls");
  await expect(page).toHaveTitle("Untitled workflow — Atelier");

  // Saving a new workflow gives it an id: the address names it.
  await canvas.add("Text");
  const alpha = await saveAs(page, "Alpha", /^\/w\/[\w-]+$/);
  await expect(page).toHaveTitle("Alpha — Atelier");

  // "New workflow" is "/", and its first save its own address.
  await page.getByRole("tab", { name: "Library" }).click();
  const library = page.getByRole("navigation", { name: "Library" });
  await library.getByRole("button", { name: "New workflow" }).click();
  await expect.poll(() => pathOf(page)).toBe("/");
  await expect(page).toHaveTitle("Untitled workflow — Atelier");
  await page.getByRole("tab", { name: "Nodes" }).click();
  await canvas.add("Text");
  await canvas.add("Text");
  const beta = await saveAs(page, "Beta", /^\/w\/[\w-]+$/);
  expect(beta).not.toBe(alpha);

  // Opening from the library moves the address.
  await page.getByRole("tab", { name: "Library" }).click();
  const all = page.getByRole("region", { name: "All workflows" });
  await all.getByRole("button", { name: /^Alpha/ }).click();
  await expectOpen(canvas, alpha, "Alpha", 1);
  await all.getByRole("button", { name: /^Beta/ }).click();
  await expectOpen(canvas, beta, "Beta", 2);

  // A reload stays on it.
  await page.reload();
  await expect(page.locator(".react-flow")).toBeVisible();
  await expectOpen(canvas, beta, "Beta", 2);

  // Back and forward move between workflows.
  await page.goBack();
  await expectOpen(canvas, alpha, "Alpha", 1);
  await page.goForward();
  await expectOpen(canvas, beta, "Beta", 2);
  await page.goBack();
  await expectOpen(canvas, alpha, "Alpha", 1);

  // An unknown id is a page that says so, not a blank canvas; its link leads to a new one.
  await page.goto("/w/0b6f4c1e-1d2a-4f5b-9c3d-2e1f0a9b8c7d");
  await expect(page.getByRole("heading", { name: NOT_FOUND })).toBeVisible();
  await expect(page.locator(".react-flow")).toHaveCount(0);
  await expect(page).toHaveTitle("Workflow not found — Atelier");
  await canvas.shot("urls-not-found");
  await page.getByRole("link", { name: "Start a new canvas" }).click();
  await expect(page.locator(".react-flow")).toBeVisible();
  await expect.poll(() => pathOf(page)).toBe("/");
  await expect(canvas.nodes()).toHaveCount(0);
  // Back to the unknown one: the page again; "Open your library" shows the library.
  await page.goBack();
  await expect(page.getByRole("heading", { name: NOT_FOUND })).toBeVisible();
  await page.getByRole("link", { name: "Open your library" }).click();
  await expect(page.getByRole("region", { name: "All workflows" })).toBeVisible();
  await expect.poll(() => pathOf(page)).toBe("/");

  // Another account's workflow is not found for this one.
  const stranger = await browser.newContext();
  const theirs = await stranger.newPage();
  const theirCanvas = new CanvasPage(theirs);
  await theirCanvas.open();
  await theirCanvas.signUp("stranger");
  await theirs.goto(alpha);
  await expect(theirs.getByRole("heading", { name: NOT_FOUND })).toBeVisible();
  await expect(theirs.locator(".react-flow")).toHaveCount(0);
  await expect.poll(() => pathOf(theirs)).toBe(alpha);
  await stranger.close();
});

test("signed out, one's own workflow is not found until signing in from that page", async ({
  page,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  const email = await canvas.signUp("urls-own");
  await canvas.add("Text");
  const mine = await saveAs(page, "Mine", /^\/w\/[\w-]+$/);

  // Signing out leaves the workflow on the canvas, and its address with it.
  await page.getByRole("button", { name: /^Account: / }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  expect(pathOf(page)).toBe(mine);

  await page.reload();
  await expect(page.getByRole("heading", { name: NOT_FOUND })).toBeVisible();
  await page.getByRole("button", { name: "Sign in" }).click();
  const form = page.getByRole("dialog", { name: "Sign in" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill("correct horse battery");
  await form.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator(".react-flow")).toBeVisible();
  await expectOpen(canvas, mine, "Mine", 1);
});

test("a device-only workflow lives at /local/:id and reloads into it", async ({ page }) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await canvas.add("Text");
  const sketch = await saveAs(page, "Sketch", /^\/local\/[\w-]+$/);
  await expect(page).toHaveTitle("Sketch — Atelier");
  await page.reload();
  await expect(page.locator(".react-flow")).toBeVisible();
  await expectOpen(canvas, sketch, "Sketch", 1);

  // One this device does not hold: the same page.
  await page.goto("/local/5d1a2b3c-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { name: NOT_FOUND })).toBeVisible();
  // Back to the one it holds.
  await page.goBack();
  await expectOpen(canvas, sketch, "Sketch", 1);
});
