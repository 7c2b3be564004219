import { expect, type Locator, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

type Box = { x: number; y: number; width: number; height: number };

/**
 * Each port row of a node card: the vertical centre of its label's text and of its dot,
 * in screen pixels. The label is measured on its text (a Range), not on the row element,
 * so a row stretched taller than its text shows up as a distance.
 */
const portRows = (node: Locator) =>
  node.locator(".node-ports .port").evaluateAll((rows) =>
    rows.map((row) => {
      const dot = row.querySelector(".react-flow__handle");
      const text = [...row.childNodes].find(
        (child) => child.nodeType === Node.TEXT_NODE && child.textContent?.trim(),
      );
      const range = document.createRange();
      if (text) range.selectNodeContents(text);
      const label = range.getBoundingClientRect();
      const dotBox = dot?.getBoundingClientRect();
      return {
        label: text?.textContent?.trim() ?? "",
        side: dot?.classList.contains("source") ? "output" : "input",
        labelCentre: label.top + label.height / 2,
        dotCentre: dotBox ? dotBox.top + dotBox.height / 2 : Number.NaN,
      };
    }),
  );

/** The canvas's zoom, from React Flow's viewport transform. */
const zoomOf = (page: Page) =>
  page
    .locator(".react-flow__viewport")
    .evaluate((element) => Number(/scale\(([\d.e-]+)\)/.exec(element.style.transform)?.[1] ?? 1));

/** The viewport transform once it has held still for two animation frames. */
const settledTransform = (page: Page) =>
  page.locator(".react-flow__viewport").evaluate(async (element) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const read = () => (element as HTMLElement).style.transform;
    const before = read();
    await frame();
    await frame();
    return read() === before ? before : null;
  });

/**
 * Why the nodes do not fit the visible canvas, or "fits": every node's box inside the
 * canvas, and the graph filling a good part of it (not fitted to a speck). Only judged
 * once the view has stopped moving (fitView animates).
 */
async function fitProblem(page: Page, canvas: CanvasPage): Promise<string> {
  if ((await settledTransform(page)) === null) return "the view is still moving";
  const view = await page.locator(".react-flow").boundingBox();
  if (!view) return "no canvas";
  const boxes = await canvas.nodes().evaluateAll((elements) =>
    elements.map((element) => {
      const { x, y, width, height } = element.getBoundingClientRect();
      return { id: element.getAttribute("data-id") ?? "", x, y, width, height };
    }),
  );
  const outside = boxes.filter(
    (box) =>
      box.x < view.x - 1 ||
      box.y < view.y - 1 ||
      box.x + box.width > view.x + view.width + 1 ||
      box.y + box.height > view.y + view.height + 1,
  );
  if (outside.length > 0)
    return `outside the canvas ${JSON.stringify(view)}: ${JSON.stringify(outside)}`;
  const left = Math.min(...boxes.map((box) => box.x));
  const right = Math.max(...boxes.map((box) => box.x + box.width));
  const top = Math.min(...boxes.map((box) => box.y));
  const bottom = Math.max(...boxes.map((box) => box.y + box.height));
  const fill = Math.max((right - left) / view.width, (bottom - top) / view.height);
  return fill < 0.6 ? `the graph fills only ${Math.round(fill * 100)} % of the canvas` : "fits";
}

/** Wheels out at the middle of the canvas until the zoom is at most `target`. */
async function zoomOutTo(page: Page, target: number) {
  const box = await page.locator(".react-flow").boundingBox();
  if (!box) throw new Error("canvas not visible");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let step = 0; step < 40 && (await zoomOf(page)) > target; step++) {
    const zoom = await zoomOf(page);
    await page.mouse.wheel(0, 400);
    await expect.poll(() => zoomOf(page)).toBeLessThan(zoom);
  }
  expect(await zoomOf(page)).toBeLessThanOrEqual(target);
}

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test.describe("card and canvas polish (issue 27)", () => {
  test("port dots sit on their label's row, for every port of several node types", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    // FLUX.1 Kontext: 4 inputs, 1 output (the report); Hunyuan 3D: 1 input, 2 outputs;
    // Kling: 3 and 2; Text: an output only; Imagen 4: one of each.
    for (const name of ["FLUX.1 Kontext", "Hunyuan 3D", "Kling", "Text", "Imagen 4"]) {
      const id = await canvas.add(name);
      const node = canvas.node(id);
      await expect(node.locator(".node-ports .port").first()).toBeVisible();
      const rows = await portRows(node);
      expect(rows.length, name).toBeGreaterThan(0);
      for (const row of rows)
        expect(
          Math.abs(row.dotCentre - row.labelCentre),
          `${name}: the ${row.side} dot of "${row.label}" (${JSON.stringify(row)})`,
        ).toBeLessThanOrEqual(2);
      if (name === "FLUX.1 Kontext") {
        expect(rows.find((row) => row.side === "output")?.label).toBe("Image");
        await canvas.shot("polish-flux-kontext-ports");
      }
      // One card at a time: the next is added where this one was.
      await canvas.select([id]);
      await page.keyboard.press("Delete");
      await expect(node).toHaveCount(0);
    }
  });

  test("Fit view after zooming far out fits every node inside the canvas", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    // Two columns of cards, taller together than wide: the fit is decided by their heights.
    // Each is dragged to its place in the canvas, wherever it was added.
    const view = await page.locator(".react-flow").boundingBox();
    if (!view) throw new Error("canvas not visible");
    const placed: [string, number, number][] = [
      ["Kling", 0.25, 0.1],
      ["FLUX.1 Kontext", 0.25, 0.55],
      ["Hunyuan 3D", 0.6, 0.1],
      ["Text", 0.6, 0.55],
    ];
    for (const [name, fx, fy] of placed) {
      const id = await canvas.add(name);
      const at = await canvas.node(id).boundingBox();
      if (!at) throw new Error(`${name} not visible`);
      await canvas.drag(id, view.x + view.width * fx - at.x, view.y + view.height * fy - at.y);
    }
    await page.keyboard.press("Escape");

    for (const fit of ["key F", "Fit View control"]) {
      await zoomOutTo(page, 0.08);
      // Zoomed out: plain boxes, smaller than the cards they stand for.
      await expect(page.locator(".node-simple").first()).toBeVisible();
      if (fit === "key F") {
        await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
        await page.keyboard.press("f");
      } else {
        await page.getByRole("button", { name: "Fit View" }).click();
      }
      await expect.poll(() => fitProblem(page, canvas), { message: fit }).toBe("fits");
      // Fitted to full cards, not boxes.
      await expect(page.locator(".node-simple")).toHaveCount(0);
    }
    await canvas.shot("polish-fit-view");
  });

  test("the queue panel never covers the selection toolbar's Delete", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    // The job's status never arrives: it stays queued and the queue panel stays open.
    await page.route("**/api/queue/events*", () => undefined);
    await page.route("**/api/queue/status", () => undefined);
    const text = await canvas.add("Text");
    await canvas.drag(text, -350, -120);
    const image = await canvas.add("FLUX1.1 [pro]");
    await canvas.node(image).getByRole("textbox", { name: "Prompt" }).fill("a paper boat");
    await canvas.node(image).getByRole("button", { name: "Run", exact: true }).click();
    const queue = page.getByRole("complementary", { name: "Queue" });
    await expect(queue).toBeVisible();

    await canvas.select([text, image]);
    const toolbar = page.getByRole("toolbar", { name: "Selection" });
    const remove = toolbar.getByRole("button", { name: "Delete", exact: true });
    await expect(remove).toBeVisible();
    const button = await remove.boundingBox();
    const panel = await queue.boundingBox();
    if (!button || !panel) throw new Error("Delete or the queue panel not visible");
    expect(
      overlaps(button, panel),
      `Delete ${JSON.stringify(button)}, queue panel ${JSON.stringify(panel)}`,
    ).toBe(false);
    await canvas.shot("polish-toolbar-beside-queue");
    // A real click (no force): it reaches the button and deletes the selection.
    await remove.click();
    await expect(canvas.node(text)).toHaveCount(0);
    await expect(canvas.node(image)).toHaveCount(0);
  });
});
