import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

test.describe("canvas editor", () => {
  test("adds nodes from the palette and by double-click search", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await expect(page.getByText("Double-click anywhere to add a node")).toBeVisible();
    await canvas.shot("01-empty-canvas");
    const text = await canvas.add("Text");
    await expect(canvas.node(text)).toContainText("Text");
    await canvas.palette().getByRole("searchbox").fill("kling");
    await expect(
      canvas.palette().getByRole("button", { name: "Kling", exact: true }),
    ).toBeVisible();
    await expect(
      canvas.palette().getByRole("button", { name: "GPT Image", exact: true }),
    ).toHaveCount(0);
    await canvas.palette().getByRole("searchbox").fill("");

    await page.locator(".react-flow__pane").dblclick({ position: { x: 900, y: 500 } });
    const search = page.getByRole("dialog", { name: "Add a node" });
    await search.getByRole("textbox").fill("upscaler");
    await search.getByRole("textbox").press("Enter");
    await expect(canvas.nodes()).toHaveCount(2);

    // Dragged from the palette onto the canvas.
    await canvas
      .palette()
      .getByRole("button", { name: "Tripo 3D", exact: true })
      .dragTo(page.locator(".react-flow__pane"), { targetPosition: { x: 300, y: 420 } });
    await expect(canvas.nodes()).toHaveCount(3);
    await expect(canvas.nodes().filter({ hasText: "Tripo 3D" })).toHaveCount(1);
    await canvas.shot("02-nodes-added");
  });

  test("connects compatible ports and refuses others with SPEC's message", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    const text = await canvas.add("Text");
    await canvas.drag(text, -350, -120);
    const image = await canvas.add("FLUX1.1 [pro]");
    await canvas.drag(image, 80, -150);
    await canvas.node(text).getByRole("textbox", { name: "Text" }).fill("a red fox in the snow");

    await canvas.connect(text, "text", image, "prompt");
    await expect(canvas.edges()).toHaveCount(1);

    // text → image input: refused with its reason.
    await canvas.connect(text, "text", image, "image");
    await expect(canvas.toast("Type mismatch: Cannot connect text to image")).toBeVisible();
    await expect(canvas.edges()).toHaveCount(1);
    await canvas.shot("03-connection-refused");
  });

  test("duplicates, deletes, undoes and redoes", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    const node = await canvas.add("Text");
    await canvas.select([node]);
    const before = await canvas.position(node);
    await page.keyboard.press("Control+d");
    await expect(canvas.nodes()).toHaveCount(2);
    const copy = (await canvas.nodeIds()).find((id) => id !== node) as string;
    const after = await canvas.position(copy);
    // +50/+50 in flow units, at zoom 0.8.
    expect(after.x - before.x).toBe(40);
    expect(after.y - before.y).toBe(40);

    await page.keyboard.press("Delete");
    await expect(canvas.nodes()).toHaveCount(1);
    await page.keyboard.press("Control+z");
    await expect(canvas.toast("Undid: Delete")).toBeVisible();
    await expect(canvas.nodes()).toHaveCount(2);
    await page.keyboard.press("Control+Shift+z");
    await expect(canvas.toast("Redid: Delete")).toBeVisible();
    await expect(canvas.nodes()).toHaveCount(1);
    await canvas.shot("04-undo-redo");
  });

  test("an edit too large to record ends the undo history: undo and redo bring nothing stale back", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    // 21 recorded "Add node" entries, then one delete of all 21 (over the 20-node limit).
    // New nodes do not overlap: zoomed out, all 21 fit in view (only those are drawn).
    for (let step = 0; step < 3; step++)
      await page.getByRole("button", { name: "Zoom Out" }).click();
    for (let count = 0; count < 21; count++) await canvas.add("Text");
    await canvas.page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("Control+a");
    await page.keyboard.press("Delete");
    await expect(canvas.nodes()).toHaveCount(0);
    await page.keyboard.press("Control+z");
    await page.keyboard.press("Control+Shift+z");
    // No node the user deleted comes back, and no undo of an unseen edit was reported.
    await expect(canvas.nodes()).toHaveCount(0);
    await expect(canvas.toast("Undid:")).toHaveCount(0);
    await expect(canvas.toast("Redid:")).toHaveCount(0);
  });

  test("aligns, distributes, groups and ungroups from the selection toolbar", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    const a = await canvas.add("Text");
    const b = await canvas.add("Text");
    const c = await canvas.add("Text");
    // New nodes go to free spots around the view's centre: the layout is drawn from a point
    // there (the centre less 160 × 120 at zoom 0.8), with nothing selected (the toolbar
    // at the top may cover a header).
    const origin = await page.evaluate(() => ({
      x: Math.round(window.innerWidth / 2 - 128),
      y: Math.round(window.innerHeight / 2 - 96),
    }));
    await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
    await canvas.dragTo(c, { x: origin.x + 364, y: origin.y + 124 });
    await canvas.dragTo(a, { x: origin.x - 300, y: origin.y });
    await canvas.dragTo(b, { x: origin.x + 32, y: origin.y + 32 });
    await canvas.select([a]);
    await page.getByRole("button", { name: "Align top" }).click();
    await expect(canvas.toast("Align needs 2 or more selected nodes")).toBeVisible();

    await canvas.select([a, b, c]);
    await page.getByRole("button", { name: "Align top" }).click();
    const tops = await Promise.all([a, b, c].map(async (id) => (await canvas.position(id)).y));
    expect(new Set(tops).size).toBe(1);
    await page.getByRole("button", { name: "Distribute horizontally" }).click();
    const xs = (await Promise.all([a, b, c].map(async (id) => (await canvas.position(id)).x))).sort(
      (p, q) => p - q,
    );
    const widths = await Promise.all(
      [a, b, c].map(async (id) => (await canvas.node(id).boundingBox())?.width ?? 0),
    );
    const [x0 = 0, x1 = 0, x2 = 0] = xs;
    expect(Math.abs(x1 - x0 - (x2 - x1))).toBeLessThanOrEqual(2);
    expect(widths[0]).toBeGreaterThan(0);
    await canvas.shot("05-aligned-distributed");

    await page.keyboard.press("Control+g");
    await expect(page.locator(".group-node")).toHaveCount(1);
    await canvas.shot("06-grouped");
    const group = (await canvas.nodeIds()).find((id) => id.startsWith("group")) as string;
    await canvas.select([group]);
    await page.getByRole("button", { name: "Ungroup" }).click();
    await expect(page.locator(".group-node")).toHaveCount(0);
    await expect(canvas.nodes()).toHaveCount(3);
  });

  test("toggles the minimap and snap to grid in preferences, and shows the shortcut sheet", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.add("Text");
    await expect(page.locator(".react-flow__minimap")).toBeVisible();
    await page.getByRole("button", { name: "Preferences" }).click();
    const preferences = page.getByRole("dialog", { name: "Preferences" });
    await preferences.getByLabel("Show minimap").uncheck();
    await preferences.getByLabel("Snap to grid").check();
    await canvas.shot("07-preferences");
    await preferences.getByRole("button", { name: "Done" }).click();
    await expect(page.locator(".react-flow__minimap")).toHaveCount(0);

    // With snap on, a drag lands on the 20-unit grid.
    const node = (await canvas.nodeIds())[0] as string;
    await canvas.drag(node, 37, 23);
    const transform = await canvas
      .node(node)
      .evaluate((element) => (element as HTMLElement).style.transform);
    const [, x, y] = /translate\(([-\d.]+)px,\s*([-\d.]+)px\)/.exec(transform) ?? [];
    expect(Number(x) % 20).toBe(0);
    expect(Number(y) % 20).toBe(0);

    // Preferences survive a reload.
    await page.reload();
    await expect(page.locator(".react-flow")).toBeVisible();
    await expect(page.locator(".react-flow__minimap")).toHaveCount(0);

    await page.keyboard.press("?");
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
    await canvas.shot("08-shortcuts");
  });

  test("a wire dropped on empty canvas offers only compatible nodes and wires the pick", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    const text = await canvas.add("Text");
    await canvas.node(text).getByRole("textbox", { name: "Text" }).fill("a lighthouse at dusk");
    const handle = await canvas.handle(text, "text", "source").boundingBox();
    if (!handle) throw new Error("no handle");
    await page.mouse.move(handle.x + 6, handle.y + 6);
    await page.mouse.down();
    await page.mouse.move(handle.x + 320, handle.y + 200, { steps: 10 });
    await page.mouse.up();
    const search = page.getByRole("dialog", { name: "Add a node" });
    await expect(search).toBeVisible();
    await expect(search.getByRole("button", { name: /Background Remover/ })).toHaveCount(0);
    await search.getByRole("textbox").fill("imagen");
    await search.getByRole("textbox").press("Enter");
    await expect(canvas.nodes()).toHaveCount(2);
    await expect(canvas.edges()).toHaveCount(1);
    await canvas.shot("09-wire-to-new-node");
  });
});
