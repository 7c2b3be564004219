import { existsSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

// The service worker is what these specs are about (the others block it).
test.use({ serviceWorkers: "allow" });

// The build the e2e server serves (playwright.config.ts: E2E_WEB_ROOT, else apps/web/dist).
const WEB_ROOT = process.env.E2E_WEB_ROOT ?? fileURLToPath(new URL("../dist", import.meta.url));

/**
 * Deploys "the next build" for the length of `body`: the same service worker with one more
 * byte, which is all a browser needs to install it as a new version. Restored afterwards.
 */
async function withNextBuild(body: () => Promise<void>): Promise<void> {
  const path = `${WEB_ROOT}/sw.js`;
  const original = readFileSync(path, "utf8");
  // Precompressed copies would still be the old worker: set aside while the new one is served.
  const compressed = [".br", ".gz"].map((suffix) => path + suffix).filter(existsSync);
  for (const copy of compressed) renameSync(copy, `${copy}.away`);
  writeFileSync(path, `${original}\n// next build\n`);
  try {
    await body();
  } finally {
    writeFileSync(path, original);
    for (const copy of compressed) renameSync(`${copy}.away`, copy);
  }
}

/** Resolves once the service worker has installed (its precache is complete) and controls the page. */
async function offlineReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
    .toBe(true);
}

test("with the network off, a reload opens the editor and the workflows kept on this device", async ({
  page,
  context,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  const text = await canvas.add("Text");
  await canvas.node(text).getByRole("textbox", { name: "Text" }).fill("a lighthouse at dusk");
  await page.getByRole("textbox", { name: "Workflow name" }).fill("Harbour");
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/local\/[\w-]+$/);
  await offlineReady(page);

  await context.setOffline(true);
  await page.reload();
  await expect(page.locator(".react-flow")).toBeVisible();
  await expect(canvas.node(text).getByRole("textbox", { name: "Text" })).toHaveValue(
    "a lighthouse at dusk",
  );
  await expect(page.getByRole("textbox", { name: "Workflow name" })).toHaveValue("Harbour");

  // The editor at "/" too, and the list of this device's workflows.
  await page.goto("/");
  await expect(page.locator(".react-flow")).toBeVisible();
  await page.getByRole("tab", { name: "Library" }).click();
  await expect(page.getByRole("heading", { name: "On this device" })).toBeVisible();
  await expect(page.getByRole("button", { name: /Harbour/ }).first()).toBeVisible();

  // Code the first visit never ran (the template gallery) comes from the worker's cache.
  await page.getByRole("button", { name: "New from template…" }).click();
  await expect(page.getByRole("dialog", { name: /template/i })).toBeVisible();
  await canvas.shot("offline-reload");
  await context.setOffline(false);
});

test("the app is installable: a manifest with icons and a service worker", async ({
  playwright,
  launchOptions,
  baseURL,
}) => {
  // Chromium never offers to install from an incognito profile, which every Playwright
  // context is but a persistent one.
  const profile = mkdtempSync(join(tmpdir(), "atelier-install-"));
  const context = await playwright.chromium.launchPersistentContext(profile, {
    ...launchOptions,
    baseURL,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const canvas = new CanvasPage(page);
  await canvas.open();
  await offlineReady(page);
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
  expect(installabilityErrors).toEqual([]);
  const { data } = await cdp.send("Page.getAppManifest");
  const manifest = JSON.parse(data ?? "{}");
  expect(manifest).toMatchObject({ name: "Atelier", display: "standalone", start_url: "/" });
  const sizes = manifest.icons.map((icon: { sizes: string }) => icon.sizes);
  expect(sizes).toEqual(expect.arrayContaining(["192x192", "512x512"]));
  await context.close();
});

test("a new version announces itself and takes over only on Reload to update", async ({ page }) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await offlineReady(page);
  const first = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);

  const text = await canvas.add("Text");
  await canvas.node(text).getByRole("textbox", { name: "Text" }).fill("kept while updating");
  await withNextBuild(async () => {
    // What the app does every hour and when the tab comes back into view.
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration?.update();
    });
    await expect
      .poll(() =>
        page.evaluate(async () =>
          Boolean((await navigator.serviceWorker.getRegistration())?.waiting),
        ),
      )
      .toBe(true);
  });

  const reload = canvas.toast("A new version of Atelier is ready.");
  await expect(reload).toBeVisible();
  // Nothing was swapped under the open editor: the old worker still controls the page.
  await expect(canvas.node(text).getByRole("textbox", { name: "Text" })).toHaveValue(
    "kept while updating",
  );
  await canvas.shot("update-ready");

  // The edit is not saved yet: the browser asks before the reload, as for any reload.
  let asked = "";
  page.once("dialog", (dialog) => {
    asked = dialog.type();
    void dialog.accept();
  });
  await Promise.all([
    page.waitForEvent("load"),
    page.getByRole("button", { name: "Reload to update" }).click(),
  ]);
  await expect(page.locator(".react-flow")).toBeVisible();
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return {
          waiting: Boolean(registration?.waiting),
          controlled: Boolean(navigator.serviceWorker.controller),
        };
      }),
    )
    .toEqual({ waiting: false, controlled: true });
  expect(asked).toBe("beforeunload");
  expect(first).toMatch(/\/sw\.js$/);
  // The edit made before the update is still there (the journal kept it across the reload).
  await expect(canvas.node(text).getByRole("textbox", { name: "Text" })).toHaveValue(
    "kept while updating",
  );
});
