import { expect, type Locator, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";
import { dropOnPane, transferOf } from "./drop.ts";

/** Drops the shared 160×120 PNG on the empty canvas; answers the new node once uploaded. */
async function dropImage(page: Page, canvas: CanvasPage): Promise<string> {
  await dropOnPane(page, await transferOf(page, "source.png"), 120, 120);
  await expect(canvas.nodes()).toHaveCount(1);
  const [image] = await canvas.nodeIds();
  if (!image) throw new Error("no node for the dropped image");
  await expect(canvas.node(image).locator(".node-output img").first()).toHaveAttribute(
    "src",
    /\/api\/media\/file\/.+\.png$/,
    { timeout: 20_000 },
  );
  return image;
}

/** "80 × 120 px…" → [80, 120]. */
const pixels = async (label: Locator) => {
  const match = /(\d+) × (\d+) px/.exec((await label.textContent()) ?? "");
  if (!match) throw new Error(`no size in "${await label.textContent()}"`);
  return [Number(match[1]), Number(match[2])];
};

const resultSize = (node: Locator) =>
  node
    .locator(".node-output img")
    .first()
    .evaluate((img: HTMLImageElement) =>
      img.complete && img.naturalWidth > 0 ? [img.naturalWidth, img.naturalHeight] : null,
    );

/** The RGB of an image or canvas at a fraction of its size, as the browser decoded it. */
const colourAt = (element: Locator, fx: number, fy: number) =>
  element.evaluate(
    (source: HTMLImageElement | HTMLCanvasElement, [fx, fy]) => {
      const width = source instanceof HTMLImageElement ? source.naturalWidth : source.width;
      const height = source instanceof HTMLImageElement ? source.naturalHeight : source.height;
      const copy = document.createElement("canvas");
      copy.width = width;
      copy.height = height;
      const context = copy.getContext("2d") as CanvasRenderingContext2D;
      context.drawImage(source, 0, 0);
      const x = Math.floor(width * (fx as number));
      const y = Math.floor(height * (fy as number));
      return Array.from(context.getImageData(x, y, 1, 1).data.slice(0, 3));
    },
    [fx, fy],
  );

const runAndWait = async (node: Locator) => {
  await node.getByRole("button", { name: "Run", exact: true }).click();
  await expect(node.locator(".status-pill")).toHaveText("Done", { timeout: 30_000 });
};

test.describe("processing nodes done in the browser and on the server", () => {
  test("a crop drawn with the preview's handles runs to exactly that size and survives a reload", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("crop-preview");
    const image = await dropImage(page, canvas);
    const crop = await canvas.add("Crop");
    await canvas.drag(crop, 380, -60);
    await canvas.connect(image, "output", crop, "image");
    const node = canvas.node(crop);
    const size = node.getByRole("status", { name: "Crop size" });
    await expect(node.getByRole("img", { name: "Source image" })).toBeVisible();
    await expect(size).toHaveText("160 × 120 px");

    // Drag the bottom-right corner up and left: the size follows while dragging.
    const corner = node.getByRole("button", { name: /^Crop bottom-right corner/ });
    const from = await corner.boundingBox();
    if (!from) throw new Error("corner not visible");
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x - 70, from.y - 40, { steps: 8 });
    const dragged = await pixels(size);
    expect(dragged[0]).toBeLessThan(160);
    expect(dragged[1]).toBeLessThan(120);
    await page.mouse.up();
    // Then the whole box, down and right; the size holds.
    const box = node.getByRole("button", { name: /^Crop area/ });
    const area = await box.boundingBox();
    if (!area) throw new Error("crop box not visible");
    await page.mouse.move(area.x + area.width / 2, area.y + area.height / 2);
    await page.mouse.down();
    await page.mouse.move(area.x + area.width / 2 + 20, area.y + area.height / 2 + 15, {
      steps: 5,
    });
    await page.mouse.up();
    await expect(size).toHaveText(`${dragged[0]} × ${dragged[1]} px`);
    // One more pixel to the left, from the keyboard.
    await box.press("ArrowLeft");
    await expect(box).toHaveAccessibleName(/^Crop area, \d+ × \d+ px from \d+, \d+/);
    const previewed = await pixels(size);
    expect(previewed).toEqual(dragged);

    await runAndWait(node);
    await expect.poll(() => resultSize(node)).toEqual(previewed);
    const boxName = await box.getAttribute("aria-label");
    await canvas.shot("crop-preview");

    await page.keyboard.press("Control+s");
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
    await page.reload();
    await expect(canvas.nodes()).toHaveCount(2, { timeout: 30_000 });
    await expect(size).toHaveText(`${previewed[0]} × ${previewed[1]} px`);
    await expect(box).toHaveAttribute("aria-label", boxName as string);
  });

  test("resize, levels and reframe preview what their run makes", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("previews");
    const image = await dropImage(page, canvas);
    // Three cards beside the image, clear of the queue panel (top right) and the minimap.
    const placed: Record<string, string> = {};
    for (const [name, x, y] of [
      ["Resize", 640, 120],
      ["Reframe", 640, 500],
      ["Levels", 960, 330],
    ] as const) {
      const id = await canvas.add(name);
      const at = await canvas.position(id);
      await canvas.drag(id, x - at.x, y - at.y);
      await canvas.connect(image, "output", id, "image");
      placed[name] = id;
    }
    const resize = canvas.node(placed.Resize as string);
    const levels = canvas.node(placed.Levels as string);
    const reframe = canvas.node(placed.Reframe as string);
    const sizeOf = (node: Locator) => node.getByRole("status", { name: "Result size" });

    await expect(sizeOf(resize)).toHaveText("1024 × 1024 px");
    await resize.getByRole("button", { name: /^Advanced/ }).click();
    await resize.getByRole("combobox", { name: "Fit" }).selectOption("inside");
    await expect(sizeOf(resize)).toHaveText("1024 × 768 px");
    await resize.getByRole("button", { name: "Hide advanced" }).click();
    await expect(sizeOf(reframe)).toHaveText("213 × 120 px (16:9)");
    await expect(sizeOf(levels)).toHaveText("160 × 120 px");
    const levelled = levels.getByRole("img", { name: "Image with levels" });
    await expect(levelled).toBeVisible();
    const before = await colourAt(levelled, 0.5, 0.5);
    await levels.getByRole("button", { name: /^Advanced/ }).click();
    await levels.getByRole("spinbutton", { name: "Black point", exact: true }).fill("60");
    await levels.getByRole("spinbutton", { name: "Saturation", exact: true }).fill("0.4");
    await expect.poll(() => colourAt(levelled, 0.5, 0.5)).not.toEqual(before);
    await levels.getByRole("button", { name: "Hide advanced" }).click();

    // Bottom cards first: a result grows its card down over the one below.
    for (const node of [reframe, levels, resize]) await runAndWait(node);
    await expect.poll(() => resultSize(resize)).toEqual([1024, 768]);
    await expect.poll(() => resultSize(reframe)).toEqual([213, 120]);
    await expect.poll(() => resultSize(levels)).toEqual([160, 120]);
    // The server's levels are the preview's: the same colours, inside and outside the square.
    const result = levels.locator(".node-output img").first();
    for (const [x, y] of [
      [0.5, 0.5],
      [0.1, 0.1],
    ] as const) {
      const shown = await colourAt(levelled, x, y);
      const made = await colourAt(result, x, y);
      for (const [channel, value] of shown.entries())
        expect(Math.abs(value - (made[channel] as number))).toBeLessThanOrEqual(3);
    }
    await canvas.shot("processing-previews");

    await page.keyboard.press("Control+s");
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
    await page.reload();
    await expect(canvas.nodes()).toHaveCount(4, { timeout: 30_000 });
    await expect(sizeOf(resize)).toHaveText("1024 × 768 px");
    await resize.getByRole("button", { name: /^Advanced/ }).click();
    await expect(resize.getByRole("combobox", { name: "Fit" })).toHaveValue("inside");
  });

  test("merge videos and lay a sound over one, on the server's ffmpeg", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("merges");
    // New nodes go to free spots around the view's centre: each is dragged into a layout
    // drawn from a point there (the centre less 160 × 120 at zoom 0.8).
    const origin = await page.evaluate(() => ({
      x: Math.round(window.innerWidth / 2 - 128),
      y: Math.round(window.innerHeight / 2 - 96),
    }));
    const place = async (type: string, dx: number, dy: number) => {
      const id = await canvas.add(type);
      await canvas.dragTo(id, { x: origin.x + dx, y: origin.y + dy });
      return id;
    };
    const clips: string[] = [];
    for (const [prompt, dx, dy] of [
      ["waves at dawn", -420, -260],
      ["a red kite", -388, 92],
    ] as const) {
      const clip = await place("Veo 3.1", dx, dy);
      await canvas.node(clip).getByRole("textbox", { name: "Prompt" }).fill(prompt);
      clips.push(clip);
    }
    const sound = await place("ElevenLabs Sound Effects", 4, 394);
    await canvas.node(sound).getByRole("textbox", { name: "Prompt" }).fill("rain on a roof");
    const merge = await place("Merge Videos", 96, -164);
    const overlay = await place("Merge Audio & Video", 508, 128);
    await canvas.connect(clips[0] as string, "video", merge, "video1");
    await canvas.connect(clips[1] as string, "video", merge, "video2");
    await canvas.connect(merge, "video", overlay, "video");
    await canvas.connect(sound, "audio", overlay, "media");
    await expect(canvas.edges()).toHaveCount(4);

    await page.getByRole("button", { name: "Run all" }).click();
    for (const id of [merge, overlay])
      await expect(canvas.node(id).locator(".status-pill")).toHaveText("Done", {
        timeout: 60_000,
      });
    const durationOf = (id: string) =>
      canvas
        .node(id)
        .locator("video")
        .first()
        .evaluate(
          (video: HTMLVideoElement) =>
            new Promise<number>((resolve) => {
              if (video.readyState >= 1) resolve(video.duration);
              else video.addEventListener("loadedmetadata", () => resolve(video.duration));
              video.load();
            }),
        );
    // Two offline clips of Veo 3.1's default 8 seconds, one after the other.
    expect(await durationOf(merge)).toBeCloseTo(16, 0);
    expect(await durationOf(overlay)).toBeCloseTo(16, 0);
    const overlaid = await canvas.node(overlay).locator("video").first().getAttribute("src");
    const bytes = await page.evaluate(async (url) => {
      const answer = await fetch(url as string);
      return new TextDecoder("latin1").decode(await answer.arrayBuffer());
    }, overlaid);
    expect(bytes).toContain("A_OPUS");
    await canvas.shot("merges");
  });
});
