import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

/**
 * Waits until the edit journal in IndexedDB holds `count` nodes. The probe never creates the
 * database (the app only opens it once it has something to keep) and closes its connection,
 * so it cannot block the app's own open.
 */
async function journalHolds(page: Page, count: number) {
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const open = indexedDB.open("atelier");
            open.onupgradeneeded = () => open.transaction?.abort();
            open.onsuccess = () => {
              const db = open.result;
              const answer = (nodes: number) => {
                db.close();
                resolve(nodes);
              };
              if (!db.objectStoreNames.contains("journal")) return answer(-1);
              const get = db.transaction("journal").objectStore("journal").get("current");
              // Entries hold the saved form as text (earlier versions: as an object).
              const saved = (entry: { text?: string; data?: { nodes: unknown[] } }) =>
                entry.text === undefined ? entry.data : JSON.parse(entry.text);
              get.onsuccess = () => answer(get.result ? saved(get.result).nodes.length : -1);
              get.onerror = () => answer(-1);
            };
            open.onerror = () => resolve(-1);
          }),
      ),
    )
    .toBe(count);
}

test.describe("saving and loading", () => {
  test("signed out: a drawing survives a reload, and a crash offers the edits back", async ({
    page,
    context,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    const node = await canvas.add("Text");
    await canvas.node(node).getByRole("textbox", { name: "Text" }).fill("kept across reloads");
    await expect(page.getByRole("status", { name: "Unsaved changes" })).toBeVisible();
    await journalHolds(page, 1);

    await page.reload();
    await expect(canvas.nodes()).toHaveCount(1);
    await expect(page.getByRole("textbox", { name: "Text" })).toHaveValue("kept across reloads");

    // Mid-edit, the tab never closes cleanly (a crash, a killed process): the next visit
    // finds the journal without a clean-exit mark and offers the edits back.
    await canvas.add("Kling");
    await journalHolds(page, 2);
    const next = await context.newPage();
    const again = new CanvasPage(next);
    await again.open();
    const offer = again.toast("Unsaved changes from your last session were found.");
    await expect(offer).toBeVisible();
    await offer.getByRole("button", { name: "Restore" }).click();
    await expect(again.nodes()).toHaveCount(2);
    await again.shot("11-crash-recovered");
  });

  test("saves to this browser with progress, exports and imports the same graph", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.add("Text");
    await canvas.add("FLUX1.1 [pro]");
    await page.getByRole("textbox", { name: "Workflow name" }).fill("Fox study");
    await page.keyboard.press("Control+s");
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toHaveCount(0, {
      timeout: 5000,
    });

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export", exact: true }).click();
    const file = await (await download).path();
    const exported = JSON.parse(await readFile(file, "utf8"));
    expect(exported.version).toBe("1.0.0");
    expect(exported.nodes).toHaveLength(2);
    expect(exported.metadata.name).toBe("Fox study");

    await page.getByRole("tab", { name: "Library" }).click();
    await page.getByRole("button", { name: "New workflow" }).click();
    await expect(canvas.nodes()).toHaveCount(0);
    await page.getByLabel("Import a workflow file").setInputFiles(file);
    await expect(canvas.nodes()).toHaveCount(2);
    await expect(page.getByRole("textbox", { name: "Workflow name" })).toHaveValue("Fox study");
    await expect(page.getByRole("status", { name: "Unsaved changes" })).toBeVisible();

    const reExport = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export", exact: true }).click();
    const again = JSON.parse(await readFile(await (await reExport).path(), "utf8"));
    expect(again.nodes).toEqual(exported.nodes);
    expect(again.edges).toEqual(exported.edges);

    await page.getByLabel("Import a workflow file").setInputFiles({
      name: "bad.json",
      mimeType: "application/json",
      buffer: Buffer.from('{"nodes":[]}'),
    });
    // The imported workflow is not saved: importing another asks first.
    await page
      .getByRole("dialog", { name: "Unsaved changes" })
      .getByRole("button", { name: "Discard changes" })
      .click();
    await expect(canvas.toast("Invalid workflow file format")).toBeVisible();
  });

  test("signed in: after a reload with unsaved edits, saves still go to the same cloud workflow", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("reload-save");
    await canvas.add("Text");
    await page.getByRole("textbox", { name: "Workflow name" }).fill("Kept base");
    await page.keyboard.press("Control+s");
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();

    // An edit, then a reload: the journal brings the edit back…
    await canvas.add("Reve");
    // …before the tab knows who is signed in (the session's answer held until Ctrl+S)…
    let answerSession = () => {};
    const held = new Promise<void>((resolve) => {
      answerSession = resolve;
    });
    await page.route("**/api/auth/get-session", async (route) => {
      await held;
      await route.continue();
    });
    await page.reload();
    await expect(canvas.nodes()).toHaveCount(2);
    // …and the next save lands on the same workflow, no backup, no second row.
    await page.keyboard.press("Control+s");
    answerSession();
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
    await expect(canvas.toast("An encrypted backup has been created locally")).toHaveCount(0);
    await page.getByRole("tab", { name: "Library" }).click();
    const rows = page
      .getByRole("region", { name: "All workflows" })
      .getByRole("button", { name: /Kept base/ });
    await expect(rows).toHaveCount(1);
    await page.reload();
    await expect(canvas.nodes()).toHaveCount(2);
  });

  test("signed in: a restored edit whose base version is unknown asks before it saves, and loses nothing", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("unknown-base");
    await canvas.add("Text");
    await page.keyboard.press("Control+s");
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
    await canvas.add("Reve");
    // A journal written by an earlier version of the app carried no base version.
    await page.addInitScript(() => {
      const raw = localStorage.getItem("atelier.exitJournal");
      if (!raw) return;
      const entry = JSON.parse(raw);
      delete entry.basedOn;
      localStorage.setItem("atelier.exitJournal", JSON.stringify(entry));
    });
    await page.reload();
    await expect(canvas.nodes()).toHaveCount(2);
    await page.keyboard.press("Control+s");
    const ask = page.getByRole("dialog", { name: "Saved elsewhere" });
    await expect(ask).toBeVisible();
    await ask.getByRole("button", { name: "Overwrite with mine" }).click();
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
    await page.reload();
    await expect(canvas.nodes()).toHaveCount(2);
  });

  test("signed in: saves to the cloud, reloads the same graph, and asks when another tab saved first", async ({
    page,
    context,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp();

    await page.getByRole("tab", { name: "Library" }).click();
    await page.getByRole("button", { name: "New workflow" }).click();
    await page.getByRole("tab", { name: "Nodes" }).click();
    await canvas.add("Text");
    await canvas.add("Veo 3.1");
    await page.getByRole("textbox", { name: "Workflow name" }).fill("Cloud piece");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
    await canvas.shot("12-saved-to-cloud");

    await page.reload();
    await expect(canvas.nodes()).toHaveCount(2);
    await expect(page.getByRole("textbox", { name: "Workflow name" })).toHaveValue("Cloud piece");

    // A second tab on the same workflow: a save there reloads this tab while it has no
    // unsaved edits…
    const other = await context.newPage();
    const otherCanvas = new CanvasPage(other);
    await otherCanvas.open();
    await expect(otherCanvas.nodes()).toHaveCount(2);
    await otherCanvas.add("Text");
    await other.keyboard.press("Control+s");
    await expect(other.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
    await expect(canvas.nodes()).toHaveCount(3);

    // …and asks when it has some: nothing is dropped.
    await canvas.add("Upscaler");
    await otherCanvas.add("Reve");
    await other.keyboard.press("Control+s");
    const conflict = page.getByRole("dialog", { name: "Saved elsewhere" });
    await expect(conflict).toBeVisible();
    await canvas.shot("13-conflict");
    await conflict.getByRole("button", { name: "Save mine as a copy" }).click();
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
    await page.getByRole("tab", { name: "Library" }).click();
    await expect(
      page
        .getByRole("region", { name: "All workflows" })
        .getByRole("button", { name: /Cloud piece/ }),
    ).toHaveCount(2);
  });
});
