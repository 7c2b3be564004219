import { SCENE_VIDEO_DEFAULT_PROMPT } from "@atelier/core";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";
import { dropOnPane, transferOf } from "./drop.ts";

/** Waits until every item of the scene has loaded (no "Loading…", no error). */
async function sceneLoaded(scene: Locator, count: number) {
  const items = scene.getByRole("list", { name: "Scene items" }).getByRole("listitem");
  await expect(items).toHaveCount(count);
  await expect(scene.getByRole("list", { name: "Scene items" }).getByText("Loading…")).toHaveCount(
    0,
    { timeout: 20_000 },
  );
  await expect(scene.getByRole("list", { name: "Scene items" }).getByRole("alert")).toHaveCount(0);
}

/** Clicks Capture and answers the URL of the image the node then shows. */
async function capture(canvas: CanvasPage, scene: string, previous: string | null) {
  const node = canvas.node(scene);
  await node.getByRole("button", { name: "Capture", exact: true }).click();
  const shown = node.locator(".node-output img").first();
  await expect(shown).toHaveAttribute("src", /\/api\/media\/file\/.+\.png$/, { timeout: 20_000 });
  if (previous) await expect(shown).not.toHaveAttribute("src", previous);
  await expect(node.locator(".status-pill")).toHaveText("Done");
  const url = (await shown.getAttribute("src")) as string;
  await expect
    .poll(() => shown.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]))
    .toEqual([1280, 720]);
  return url;
}

const bytesOf = async (page: Page, url: string) =>
  Buffer.from(await (await page.request.get(url)).body()).toString("base64");

test.describe("scene composer", () => {
  test("a scene-composer capture feeding a video node", async ({ page }) => {
    test.setTimeout(180_000);
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("scene");

    // An image, and a 3D model made from it on the local provider.
    await dropOnPane(page, await transferOf(page, "poster.png"), 20, 20);
    await expect(canvas.nodes()).toHaveCount(1);
    const [image] = await canvas.nodeIds();
    if (!image) throw new Error("no node for the dropped image");
    await expect(canvas.node(image).locator(".status-pill")).toHaveText("Done", {
      timeout: 20_000,
    });
    const model = await canvas.addAndMove("Hunyuan 3D", -260, 80);
    await canvas.connect(image, "output", model, "image");
    await canvas.node(model).getByRole("button", { name: "Run", exact: true }).click();
    await expect(canvas.node(model).locator(".status-pill")).toHaveText("Done", {
      timeout: 30_000,
    });

    // The scene composer from the palette, fed both.
    const scene = await canvas.addAndMove("Scene Composer", 40, -300);
    const node = canvas.node(scene);
    await expect(node.getByText("Connect 3D models or images to place them here")).toBeVisible({
      timeout: 20_000,
    });
    await canvas.connect(model, "model", scene, "model");
    await canvas.connect(image, "output", scene, "image");
    await sceneLoaded(node, 2);
    // The editor fits the card (nothing sticks out of the node).
    const card = await node.boundingBox();
    const editor = await node.locator(".scene-composer").boundingBox();
    if (!card || !editor) throw new Error("scene not visible");
    expect(editor.x + editor.width).toBeLessThanOrEqual(card.x + card.width);
    const first = await capture(canvas, scene, null);

    // Pick the model, rotate it with the keyboard and move it with the arrows.
    await node.getByRole("button", { name: "Hunyuan 3D", exact: true }).click();
    const viewport = node.getByRole("application", { name: "3D scene" });
    await expect(viewport).toBeFocused();
    await page.keyboard.press("e");
    await expect(node.getByRole("button", { name: "Rotate" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    for (let step = 0; step < 3; step++) await page.keyboard.press("ArrowRight");
    await page.keyboard.press("w");
    for (let step = 0; step < 4; step++) await page.keyboard.press("ArrowUp");
    await expect(node.getByText("Changed since the last capture")).toBeVisible();
    // Delete hides an item (the canvas node stays); Show brings it back.
    await page.keyboard.press("Delete");
    await expect(canvas.nodes()).toHaveCount(3);
    await node.getByRole("button", { name: "Show Hunyuan 3D", exact: true }).click();
    const moved = await capture(canvas, scene, first);
    expect(await bytesOf(page, moved)).not.toBe(await bytesOf(page, first));

    // The capture feeds a video node whose prompt is empty: SPEC §9's default prompt goes.
    const video = await canvas.addAndMove("Kling", 350, -300);
    await canvas.connect(scene, "image", video, "image");
    await expect(canvas.edges()).toHaveCount(4);
    const generate = page.waitForRequest(
      (request) =>
        request.method() === "POST" && request.url().endsWith("/api/generate/kling-video"),
    );
    await canvas.node(video).getByRole("button", { name: "Run", exact: true }).click();
    const body = (await generate).postDataJSON() as { inputs: Record<string, unknown> };
    expect(body.inputs.prompt).toBe(SCENE_VIDEO_DEFAULT_PROMPT);
    expect(body.inputs.image).toBe(moved);
    await expect(canvas.node(video).locator(".status-pill")).toHaveText("Done", {
      timeout: 40_000,
    });
    await expect(canvas.node(video).locator("video")).toHaveAttribute("src", /\.webm$/);
    // A little further out, so the whole chain fits the screenshot (still full detail).
    await page.locator(".react-flow__controls-zoomout").click();
    await canvas.shot("scene-composer");

    // Saved and reloaded: the placement and camera come back, so the same shot comes out.
    await page.keyboard.press("Control+s");
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
    await page.reload();
    await expect(canvas.node(scene)).toBeVisible({ timeout: 30_000 });
    await sceneLoaded(canvas.node(scene), 2);
    await expect(canvas.node(scene).locator(".node-output img").first()).toHaveAttribute(
      "src",
      moved,
    );
    await expect(canvas.node(scene).getByText("Changed since the last capture")).toHaveCount(0);
    const again = await capture(canvas, scene, moved);
    expect(await bytesOf(page, again)).toBe(await bytesOf(page, moved));

    // With the mouse: a click on the picture picks it, a drag on empty ground orbits.
    const reloaded = canvas.node(scene);
    const box = await reloaded.getByRole("application", { name: "3D scene" }).boundingBox();
    if (!box) throw new Error("scene not visible");
    await page.mouse.click(box.x + box.width * 0.72, box.y + box.height * 0.45);
    await expect(reloaded.getByRole("button", { name: "poster.png", exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await page.keyboard.press("Escape");
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.9);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.85, { steps: 8 });
    await page.mouse.up();
    await expect(reloaded.getByText("Changed since the last capture")).toBeVisible();
  });
});
