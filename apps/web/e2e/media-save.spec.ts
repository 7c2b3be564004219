import { expect, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

/** A noisy 400×300 JPEG drawn by the browser, as a data URL (well over 100 KB). */
function noisyJpeg(page: Page): Promise<string> {
  return page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = 400;
    canvas.height = 300;
    const context = canvas.getContext("2d") as CanvasRenderingContext2D;
    const pixels = context.createImageData(400, 300);
    let seed = 7;
    for (let index = 0; index < pixels.data.length; index++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      pixels.data[index] = index % 4 === 3 ? 255 : seed & 0xff;
    }
    context.putImageData(pixels, 0, 0);
    return canvas.toDataURL("image/jpeg", 1);
  });
}

async function importWorkflow(page: Page, workflow: unknown) {
  await page.getByLabel("Import a workflow file").setInputFiles({
    name: "media.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(workflow)),
  });
}

test("embedded media is compressed and uploaded on save; the saved data holds its URL", async ({
  page,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await canvas.signUp("media");
  const embedded = await noisyJpeg(page);
  const embeddedBytes = Math.floor((embedded.length - embedded.indexOf(",") - 1) * 0.75);
  expect(embeddedBytes).toBeGreaterThan(100 * 1024);

  await importWorkflow(page, {
    version: "1.0.0",
    timestamp: Date.now(),
    nodes: [
      {
        id: "pic",
        type: "flux-pro",
        position: { x: 0, y: 0 },
        data: { label: "Picture", outputs: { imageUrl: embedded }, status: "complete" },
      },
    ],
    edges: [],
    metadata: { name: "With a picture" },
  });
  await expect(canvas.node("pic")).toBeVisible();
  const uploads: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().endsWith("/api/media"))
      uploads.push(request.url());
  });
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible({
    timeout: 30_000,
  });
  expect(uploads).toHaveLength(1);

  // The cloud copy holds a storage URL, and the canvas shows the stored file.
  const id = await page.evaluate(() => localStorage.getItem("atelier.lastWorkflow"));
  const row = await page.evaluate(
    async (workflowId) => (await (await fetch(`/api/workflows/${workflowId}`)).json()).workflow,
    id,
  );
  const url: string = row.data.nodes[0].data.outputs.imageUrl;
  expect(url).toMatch(/\/api\/media\/file\/[^/]+\/[^/]+\/\d+-[a-z0-9]+\.jpg$/);
  await expect(canvas.node("pic").locator("img")).toHaveAttribute("src", url);
  const stored = await page.evaluate(async (fileUrl) => {
    const response = await fetch(fileUrl);
    return {
      status: response.status,
      type: response.headers.get("content-type"),
      bytes: (await response.arrayBuffer()).byteLength,
    };
  }, url);
  expect(stored).toMatchObject({ status: 200, type: "image/jpeg" });
  // Re-encoded at JPEG quality 0.8 before upload (SPEC §9): smaller than what was embedded.
  expect(stored.bytes).toBeLessThan(embeddedBytes);
  expect(stored.bytes).toBeGreaterThan(1000);

  // Saving again uploads nothing more: the URL is already in the document.
  await canvas.node("pic").locator(".node-header").click();
  await page.getByRole("textbox", { name: "Workflow name" }).fill("With a picture, again");
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  expect(uploads).toHaveLength(1);
});

test("loading shows its steps while the server answers", async ({ page }) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await canvas.signUp("steps");
  await canvas.add("Text");
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  const id = await page.evaluate(() => localStorage.getItem("atelier.lastWorkflow"));

  // Hold the workflow read until the step message has been seen.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(`**/api/workflows/${id}`, async (route) => {
    if (route.request().method() === "GET") await held;
    await route.continue();
  });
  await page.reload();
  const step = page
    .getByRole("status")
    .filter({ hasText: "Fetching the workflow from the cloud…" });
  await expect(step).toBeVisible();
  release();
  await expect(step).toBeHidden();
  await expect(canvas.nodes()).toHaveCount(1);
});
