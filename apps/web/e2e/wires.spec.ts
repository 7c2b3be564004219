import { generateFixture } from "@atelier/bench/fixtures";
import { expect, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

const WIRES = generateFixture(2000).edges;

/** The wires drawn, and the fixture's wires with an end in view. */
async function drawnAndExpected(canvas: CanvasPage) {
  const nodes = new Set(
    await canvas.nodes().evaluateAll((elements) => {
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
    }),
  );
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
  // Fitted to the 2000 nodes (as far as the zoom goes out), zoomed out: plain boxes, no wires.
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
