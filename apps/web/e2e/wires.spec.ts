import { generateFixture } from "@atelier/bench/fixtures";
import { expect, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

const WIRES = generateFixture(2000).edges;

/** The ids of the nodes on screen. */
const visibleNodeIds = (canvas: CanvasPage) =>
  canvas.nodes().evaluateAll((elements) => {
    const view = document.querySelector(".react-flow")?.getBoundingClientRect();
    if (!view) return [];
    return elements
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return (
          box.right > view.left &&
          box.left < view.right &&
          box.bottom > view.top &&
          box.top < view.bottom
        );
      })
      .map((element) => element.getAttribute("data-id") ?? "");
  });

/** The wires drawn, and the fixture's wires with an end in view. */
async function drawnAndExpected(canvas: CanvasPage) {
  const nodes = new Set(await visibleNodeIds(canvas));
  const drawn = await canvas
    .edges()
    .evaluateAll((elements) => elements.map((element) => element.getAttribute("data-id") ?? ""));
  // A wire with an end in view crosses the view, however far its other end is.
  const oneEndInView = WIRES.filter((wire) => nodes.has(wire.source) || nodes.has(wire.target));
  return { drawn: new Set(drawn), expected: oneEndInView.map((wire) => wire.id) };
}

/** Zooms in at a point of the canvas (wheel) until nodes show their ports and wires. */
async function zoomInAt(page: Page, x: number, y: number) {
  await page.mouse.move(x, y);
  for (let turn = 0; turn < 12; turn++) await page.mouse.wheel(0, -400);
  await expect(page.locator(".react-flow__handle").first()).toBeVisible();
}

test("wires are drawn wherever the view goes on a 2000-node canvas", async ({ page }) => {
  const canvas = new CanvasPage(page);
  await canvas.open("?fixture=2000");
  // Fitted to the 2000 nodes (as far as the zoom goes out), zoomed out: plain boxes, and
  // the wires on the zoomed-out canvas, not as React Flow edges.
  await expect.poll(() => canvas.nodes().count(), { timeout: 60_000 }).toBeGreaterThan(1500);
  await expect(canvas.edges()).toHaveCount(0);

  const view = page.locator(".react-flow");
  const box = await view.boundingBox();
  if (!box) throw new Error("canvas not visible");
  for (const [fx, fy] of [
    [0.2, 0.2],
    [0.8, 0.8],
  ] as const) {
    await page.getByRole("button", { name: "Fit View" }).click();
    await zoomInAt(page, box.x + box.width * fx, box.y + box.height * fy);
    await expect
      .poll(async () => {
        const { drawn, expected } = await drawnAndExpected(canvas);
        // Named, so a failure says which wires are missing.
        return expected.length > 0 ? expected.filter((id) => !drawn.has(id)) : ["no wire in view"];
      })
      .toEqual([]);
  }
});

/** The canvas's zoom, from React Flow's viewport transform. */
const zoomOf = (page: Page) =>
  page
    .locator(".react-flow__viewport")
    .evaluate((element) => Number(/scale\(([\d.]+)\)/.exec(element.style.transform)?.[1] ?? 1));

/** Zooms with the wheel at the middle of the canvas until the zoom is within 3 % of `target`. */
async function zoomTo(page: Page, target: number) {
  const box = await page.locator(".react-flow").boundingBox();
  if (!box) throw new Error("canvas not visible");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let step = 0; step < 60; step++) {
    const zoom = await zoomOf(page);
    if (Math.abs(zoom / target - 1) < 0.03) return;
    // d3-zoom: one wheel unit scales by 2^(-deltaY × 0.002).
    const delta = Math.max(-300, Math.min(300, -Math.log2(target / zoom) / 0.002));
    await page.mouse.wheel(0, Math.abs(delta) < 5 ? Math.sign(delta) * 5 : delta);
    await expect.poll(() => zoomOf(page)).not.toBe(zoom);
  }
  throw new Error(`could not zoom to ${target}`);
}

/** Wires drawn now: React Flow's edges, or the ids on the zoomed-out wires' canvases. */
const drawnWires = async (page: Page) => [
  ...(await page
    .locator(".react-flow__edge")
    .evaluateAll((elements) => elements.map((element) => element.getAttribute("data-id") ?? ""))),
  ...(await page
    .locator("canvas.zoomed-out-wires")
    .evaluateAll((elements) =>
      elements.flatMap(
        (element) => (element as HTMLCanvasElement & { wireIds?: string[] }).wireIds ?? [],
      ),
    )),
];

/** Wire-coloured pixels on the zoomed-out canvas (the wires are there, not just listed). */
const colouredPixels = (page: Page) =>
  page
    .locator("canvas.zoomed-out-wires")
    .first()
    .evaluate((element) => {
      const canvas = element as HTMLCanvasElement;
      const pixels = canvas.getContext("2d")?.getImageData(0, 0, canvas.width, canvas.height).data;
      let count = 0;
      for (let index = 3; index < (pixels?.length ?? 0); index += 4) if (pixels?.[index]) count++;
      return count;
    });

for (const size of [2, 300, 2000]) {
  test(`every wire with an end in view is drawn at 10 %, 30 % and 100 % zoom (${size} nodes)`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const wires = generateFixture(size).edges;
    const canvas = new CanvasPage(page);
    await canvas.open(`?fixture=${size}`);
    await expect.poll(() => canvas.nodes().count(), { timeout: 60_000 }).toBeGreaterThan(0);
    for (const zoom of [0.1, 0.3, 1]) {
      await zoomTo(page, zoom);
      if (zoom < 0.5) await expect.poll(() => colouredPixels(page)).toBeGreaterThan(0);
      await expect
        .poll(async () => {
          const inView = new Set(await visibleNodeIds(canvas));
          const drawn = new Set(await drawnWires(page));
          const missing = wires
            .filter((wire) => inView.has(wire.source) || inView.has(wire.target))
            .filter((wire) => !drawn.has(wire.id))
            .map((wire) => wire.id);
          return inView.size === 0 ? ["no node in view"] : missing.map((id) => `${id} at ${zoom}`);
        })
        .toEqual([]);
      await canvas.shot(`wires-${size}-nodes-${Math.round(zoom * 100)}-percent`);
    }
  });
}

/** The wire ids on one of the zoomed-out canvases: the still wires, or the moving ones. */
const wiresOn = (page: Page, layer: "still" | "moving") =>
  page
    .locator(layer === "moving" ? "canvas.zoomed-out-wires.moving" : "canvas.zoomed-out-wires")
    .first()
    .evaluate((element) => (element as HTMLCanvasElement & { wireIds?: string[] }).wireIds ?? []);

test("a zoomed-out drag moves the box with its wires, and lands as one Move to undo", async ({
  page,
}) => {
  const wires = generateFixture(300).edges;
  const canvas = new CanvasPage(page);
  await canvas.open("?fixture=300");
  await expect.poll(() => canvas.nodes().count(), { timeout: 60_000 }).toBeGreaterThan(0);
  await zoomTo(page, 0.3);
  const inView = new Set(await visibleNodeIds(canvas));
  const wire = wires.find((each) => inView.has(each.source) && inView.has(each.target));
  if (!wire) throw new Error("no wire with both ends in view");
  const box = page.locator(`.react-flow__node[data-id="${wire.source}"]`);
  const start = await box.boundingBox();
  if (!start) throw new Error("box not drawn");
  const left = async () => (await box.boundingBox())?.x ?? Number.NaN;
  // Snapping to the 20-unit grid puts a box up to a grid step (6 px at 30 %) off the pointer.
  const near = (x: number, expected: number) => Math.abs(x - expected) <= 7;

  const grab = { x: start.x + start.width / 2, y: start.y + start.height / 2 };
  await page.mouse.move(grab.x, grab.y);
  await page.mouse.down();
  await page.mouse.move(grab.x + 30, grab.y + 20, { steps: 5 });
  await page.mouse.move(grab.x + 60, grab.y + 40, { steps: 5 });
  // Mid-drag the box is where the pointer took it, its wires are redrawn with it, and the
  // moves have stayed off the document (the canvas is marked for the live drag).
  await expect.poll(async () => near(await left(), start.x + 60)).toBe(true);
  await expect(page.locator(".canvas.live-dragging")).toHaveCount(1);
  await expect.poll(() => wiresOn(page, "moving")).toContain(wire.id);
  await expect.poll(() => wiresOn(page, "still")).not.toContain(wire.id);
  await canvas.shot("wires-zoomed-out-drag");
  await page.mouse.up();

  await expect(page.locator(".canvas.live-dragging")).toHaveCount(0);
  await expect.poll(() => wiresOn(page, "still")).toContain(wire.id);
  expect(near(await left(), start.x + 60)).toBe(true);
  await page.keyboard.press("Control+z");
  await expect(canvas.toast("Undid: Move")).toBeVisible();
  await expect.poll(async () => near(await left(), start.x)).toBe(true);
});
