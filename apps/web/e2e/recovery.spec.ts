import { expect, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

test.describe("never losing work", () => {
  test("a failed save leaves an encrypted backup that restores", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp();
    await canvas.add("Text");
    await canvas.add("Seedream 4");
    await page.getByRole("textbox", { name: "Workflow name" }).fill("Fragile");

    await page.route("**/api/workflows", (route) =>
      route.fulfill({ status: 503, body: '{"error":"Service unavailable"}' }),
    );
    await page.keyboard.press("Control+s");
    await expect(
      canvas.toast("Failed to save workflow. An encrypted backup has been created locally."),
    ).toBeVisible();
    await page.unroute("**/api/workflows");

    // Stored encrypted: no readable workflow JSON in the backup.
    const stored = await page.evaluate(
      () =>
        new Promise<{ count: number; readable: boolean }>((resolve) => {
          const open = indexedDB.open("atelier");
          open.onsuccess = () => {
            const all = open.result.transaction("backups").objectStore("backups").getAll();
            all.onsuccess = () =>
              resolve({
                count: all.result.length,
                readable: all.result.some((backup: { ciphertext: ArrayBuffer }) =>
                  new TextDecoder().decode(backup.ciphertext).includes('"nodes"'),
                ),
              });
          };
        }),
    );
    expect(stored).toEqual({ count: 1, readable: false });

    await page.getByRole("tab", { name: "Library" }).click();
    await page.getByRole("button", { name: "New workflow" }).click();
    // The failed save left the edits unsaved: New asks first.
    await page
      .getByRole("dialog", { name: "Unsaved changes" })
      .getByRole("button", { name: "Discard changes" })
      .click();
    await expect(canvas.nodes()).toHaveCount(0);
    await page
      .getByRole("region", { name: "Backups" })
      .getByRole("button", { name: /Fragile/ })
      .click();
    await expect(
      canvas.toast("Workflow restored from backup. Please save to persist changes."),
    ).toBeVisible();
    await expect(canvas.nodes()).toHaveCount(2);
    // SPEC §4: clean after a restore (until the next edit).
    await expect(page.locator(".dirty-dot")).toHaveCount(0);
    await expect(page.getByRole("status").filter({ hasText: "Not saved" })).toHaveCount(0);
    await canvas.shot("14-backup-restored");
  });

  test("offline edits are kept and sync when the connection returns", async ({ page, context }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp();
    await canvas.add("Text");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();

    await context.setOffline(true);
    await expect(
      page.getByRole("status").filter({ hasText: "Offline — changes kept on this device" }),
    ).toBeVisible();
    await canvas.add("Kling");
    await page.keyboard.press("Control+s");
    await expect(canvas.toast("Cannot sync while offline")).toBeVisible();
    await canvas.shot("15-offline");

    await context.setOffline(false);
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible({
      timeout: 10_000,
    });
    await page.reload();
    await expect(canvas.nodes()).toHaveCount(2);
  });
});

test("a cloud load slower than 5 s opens the copy kept on this device", async ({ page }) => {
  const canvas = await savedTwoNodeWorkflow(page, "Slow server");
  // The copy is written when the browser is idle after the save.
  await expect.poll(() => deviceCopies(page)).toBe(1);
  await reloadWithSlowServer(page, canvas, "Slow server");
});

/** How many workflows this page's IndexedDB keeps (without creating the database). */
function deviceCopies(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const opening = indexedDB.open("atelier");
        opening.onupgradeneeded = () => opening.transaction?.abort();
        opening.onerror = () => resolve(0);
        opening.onsuccess = () => {
          const db = opening.result;
          if (!db.objectStoreNames.contains("workflows")) {
            db.close();
            return resolve(0);
          }
          const count = db.transaction("workflows").objectStore("workflows").count();
          count.onsuccess = () => {
            db.close();
            resolve(count.result);
          };
          count.onerror = () => {
            db.close();
            resolve(0);
          };
        };
      }),
  );
}

test("the copy kept when a cloud workflow opens (a Blob) opens when the server is slow", async ({
  page,
}) => {
  const canvas = await savedTwoNodeWorkflow(page, "Kept as a blob");

  // Reopened from the cloud: the answer is kept on this device as a Blob when idle.
  await page.reload();
  await expect(canvas.nodes()).toHaveCount(2);
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          new Promise<string>((resolve, reject) => {
            const opening = indexedDB.open("atelier");
            // Before the app has made its database, this must not make one (nor hold a
            // connection that blocks the app's upgrade): abort, and look again later.
            opening.onupgradeneeded = () => opening.transaction?.abort();
            opening.onerror = () => resolve("none");
            opening.onsuccess = () => {
              if (!opening.result.objectStoreNames.contains("workflows")) {
                opening.result.close();
                resolve("none");
                return;
              }
              const read = opening.result
                .transaction("workflows")
                .objectStore("workflows")
                .getAll();
              read.onerror = () => reject(read.error);
              read.onsuccess = () => {
                opening.result.close();
                const copy = read.result[0] as { blob?: Blob; data?: unknown } | undefined;
                resolve(copy?.blob instanceof Blob ? "blob" : copy?.data ? "data" : "none");
              };
            };
          }),
      ),
    )
    .toBe("blob");

  await reloadWithSlowServer(page, canvas, "Kept as a blob");
});

/** Signed up, with a saved two-node workflow called `name` on the canvas. */
async function savedTwoNodeWorkflow(page: Page, name: string): Promise<CanvasPage> {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await canvas.signUp();
  await canvas.add("Text");
  await canvas.add("Imagen 4");
  await page.getByRole("textbox", { name: "Workflow name" }).fill(name);
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  return canvas;
}

/** Reloads with the workflow's GET answering after 7 s: the device copy opens instead. */
async function reloadWithSlowServer(page: Page, canvas: CanvasPage, name: string) {
  await page.route(/\/api\/workflows\/[^/]+$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 7000));
    await route.continue().catch(() => undefined);
  });
  await page.reload();
  await expect(
    canvas.toast("The server is slow to answer: opened the copy kept on this device."),
  ).toBeVisible({ timeout: 10_000 });
  await expect(canvas.nodes()).toHaveCount(2);
  await expect(page.getByRole("textbox", { name: "Workflow name" })).toHaveValue(name);
}
