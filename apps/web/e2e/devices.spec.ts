import { type CDPSession, expect, type Locator, type Page, test } from "@playwright/test";
import { scan } from "./axe.ts";
import { CanvasPage } from "./canvas-page.ts";

/*
 * Issue 27, devices: a usable layout down to a 390 px phone (panels as bottom sheets), and
 * touch and pen on the canvas, in Chromium's touch emulation. Touches and pen strokes go
 * through CDP (Input.dispatchTouchEvent / dispatchMouseEvent): what a real screen sends.
 */

const PHONE = { width: 390, height: 844 };

interface Point {
  x: number;
  y: number;
}

/** The canvas's pan and zoom, read from the viewport element's transform. */
const viewOf = (page: Page) =>
  page.locator(".react-flow__viewport").evaluate((element) => {
    const matrix = new DOMMatrixReadOnly(getComputedStyle(element).transform);
    return { x: matrix.e, y: matrix.f, zoom: matrix.a };
  });

/** The document never scrolls sideways: nothing is wider than the phone. */
async function expectNoOverflow(page: Page, where: string): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: where })
    .toBeLessThanOrEqual(PHONE.width);
}

/** A bottom sheet: the screen's full width, along its bottom edge, with a Close button. */
async function expectSheet(page: Page, sheet: Locator, where: string): Promise<void> {
  await expect(sheet).toBeVisible();
  await expect
    .poll(
      async () => {
        const box = await sheet.boundingBox();
        return box && { left: box.x, width: box.width, bottom: box.y + box.height };
      },
      { message: `${where} is a bottom sheet` },
    )
    .toEqual({ left: 0, width: PHONE.width, bottom: PHONE.height });
  await expect(closeOf(sheet)).toBeVisible();
  await expect(closeOf(sheet)).toHaveAccessibleName("Close");
  await expectNoOverflow(page, where);
}

/** A sheet's own close button (a dialog may have a Close of its own besides). */
const closeOf = (sheet: Locator) => sheet.locator(".sheet-close");

/** Within `slack` px of `want` on both axes: a drag starts past a threshold, not at once. */
function expectNear(got: Point, want: Point, slack: number): void {
  expect(Math.abs(got.x - want.x), `x ${got.x}, not ${want.x}`).toBeLessThanOrEqual(slack);
  expect(Math.abs(got.y - want.y), `y ${got.y}, not ${want.y}`).toBeLessThanOrEqual(slack);
}

/** Fingers down, moved together in steps, lifted: one finger per point of each frame. */
async function touchPath(cdp: CDPSession, frames: Point[][]): Promise<void> {
  const points = (frame: Point[]) => frame.map((point, id) => ({ ...point, id }));
  const [first, ...rest] = frames;
  if (!first) return;
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: points(first) });
  for (const frame of rest)
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: points(frame) });
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
}

/** `steps` frames from `from` to `to`, each finger moved by its own offset. */
function glide(from: Point[], offsets: Point[], steps = 10): Point[][] {
  return Array.from({ length: steps + 1 }, (_, step) =>
    from.map((point, finger) => ({
      x: point.x + ((offsets[finger]?.x ?? 0) * step) / steps,
      y: point.y + ((offsets[finger]?.y ?? 0) * step) / steps,
    })),
  );
}

/** What a touch at the point lands on: the empty canvas, so it pans or zooms the view. */
const onPane = (page: Page, point: Point) =>
  page.evaluate(
    ({ x, y }) => document.elementFromPoint(x, y)?.classList.contains("react-flow__pane"),
    point,
  );

/** Adds a node through the phone's Nodes sheet (which closes to show it); its id. */
async function addOnPhone(page: Page, canvas: CanvasPage, name: string): Promise<string> {
  await page.getByRole("button", { name: "Nodes", exact: true }).tap();
  const id = await canvas.add(name);
  await expect(page.locator(".sidebar")).toBeHidden();
  return id;
}

/** Where a node's header is, to grab it (the title's left part). */
async function headerPoint(canvas: CanvasPage, id: string): Promise<Point> {
  const box = await canvas.node(id).locator(".node-header").boundingBox();
  if (!box) throw new Error("node header not visible");
  return { x: box.x + 24, y: box.y + box.height / 2 };
}

test.describe("on a 390 px phone", () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test("nothing is wider than the screen, and the panels are bottom sheets", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await expectNoOverflow(page, "the editor");
    // The top bar keeps its actions in one row that scrolls, inside the screen.
    const actions = await page.locator(".top-actions").boundingBox();
    expect(actions && actions.x + actions.width).toBeLessThanOrEqual(PHONE.width);

    // The sidebar is closed until asked for, then a sheet; Close puts it away.
    const sidebar = page.locator(".sidebar");
    await expect(sidebar).toBeHidden();
    await page.getByRole("button", { name: "Nodes", exact: true }).tap();
    await expect(canvas.palette()).toBeVisible();
    await expectSheet(page, sidebar, "the Nodes sheet");
    await canvas.shot("devices-phone-nodes-sheet");
    await scan(page, "phone Nodes sheet");
    await closeOf(sidebar).tap();
    await expect(sidebar).toBeHidden();

    await page.getByRole("button", { name: "Library", exact: true }).tap();
    await expect(page.getByRole("navigation", { name: "Library" })).toBeVisible();
    await expectSheet(page, sidebar, "the Library sheet");
    await closeOf(sidebar).tap();
    await expect(sidebar).toBeHidden();

    // A node added from the sheet is in sight, and still nothing overflows.
    const image = await addOnPhone(page, canvas, "FLUX1.1 [pro]");
    await expect(canvas.node(image)).toBeInViewport();
    await expect(page.getByRole("toolbar", { name: "Selection" })).toBeVisible();
    await expectNoOverflow(page, "the editor with a selected node");
    await canvas.shot("devices-phone-editor");
    await scan(page, "phone editor");

    // The dialogs of the top bar are sheets too.
    for (const [button, dialog] of [
      ["Preferences", "Preferences"],
      ["Keyboard shortcuts", "Keyboard shortcuts"],
      ["Sign in", "Sign in"],
    ]) {
      await page.getByRole("button", { name: button, exact: true }).click();
      const sheet = page.getByRole("dialog", { name: dialog });
      await expectSheet(page, sheet, `the ${dialog} dialog`);
      await closeOf(sheet).tap();
      await expect(sheet).toBeHidden();
    }

    // The queue panel: a job whose status never arrives keeps it open.
    await page.route("**/api/queue/events*", () => undefined);
    await page.route("**/api/queue/status", () => undefined);
    await canvas.node(image).getByRole("textbox", { name: "Prompt" }).fill("a paper boat");
    await canvas.node(image).getByRole("button", { name: "Run", exact: true }).click();
    const queue = page.getByRole("complementary", { name: "Queue" });
    await expectSheet(page, queue, "the queue panel");
    await canvas.shot("devices-phone-queue");
    await closeOf(queue).tap();
    await expect(queue).toBeHidden();
  });

  test("signed in: the account menu, Share, Runs and History fit the screen", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("devices");
    await addOnPhone(page, canvas, "Text");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();

    await page.getByRole("button", { name: /^Account: / }).click();
    const menu = page.getByRole("menu", { name: "Account" });
    await expect(menu).toBeVisible();
    await expectNoOverflow(page, "the account menu");
    const box = await menu.boundingBox();
    expect(box && { left: box.x, width: box.width }).toEqual({ left: 0, width: PHONE.width });
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();

    for (const [button, dialog] of [
      ["Share", "Share"],
      ["Runs", "Run history"],
      ["History", "Version history"],
    ] as const) {
      await page.getByRole("button", { name: button, exact: true }).click();
      const sheet = page.getByRole("dialog", { name: dialog });
      await expectSheet(page, sheet, `the ${button} dialog`);
      await closeOf(sheet).tap();
      await expect(sheet).toBeHidden();
    }
  });

  test("a pinch zooms the canvas, one finger pans it or moves a node", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    const cdp = await page.context().newCDPSession(page);
    const start = await viewOf(page);

    // Two fingers 80 px apart spread to 240 px: the view zooms in about that point.
    const fingers = [
      { x: 155, y: 560 },
      { x: 235, y: 560 },
    ];
    for (const finger of fingers) expect(await onPane(page, finger)).toBe(true);
    await touchPath(
      cdp,
      glide(fingers, [
        { x: -80, y: 0 },
        { x: 80, y: 0 },
      ]),
    );
    await expect.poll(async () => (await viewOf(page)).zoom).toBeGreaterThan(start.zoom * 1.5);
    const zoomed = await viewOf(page);

    // Back together: it zooms out again.
    await touchPath(
      cdp,
      glide(
        [
          { x: 75, y: 560 },
          { x: 315, y: 560 },
        ],
        [
          { x: 80, y: 0 },
          { x: -80, y: 0 },
        ],
      ),
    );
    await expect.poll(async () => (await viewOf(page)).zoom).toBeLessThan(zoomed.zoom / 1.5);

    // One finger on the empty canvas pans the view by the finger's path.
    const before = await viewOf(page);
    const from = { x: 120, y: 420 };
    expect(await onPane(page, from)).toBe(true);
    await touchPath(cdp, glide([from], [{ x: 60, y: 100 }]));
    await expect
      .poll(async () => {
        const view = await viewOf(page);
        return { dx: Math.round(view.x - before.x), dy: Math.round(view.y - before.y) };
      })
      .toEqual({ dx: 60, dy: 100 });

    // One finger on a node moves the node, not the view.
    const text = await addOnPhone(page, canvas, "Text");
    const view = await viewOf(page);
    const at = await canvas.position(text);
    await touchPath(cdp, glide([await headerPoint(canvas, text)], [{ x: -50, y: 90 }], 30));
    await expect.poll(() => canvas.position(text)).not.toEqual(at);
    const moved = await canvas.position(text);
    // Within ~20 px: Chromium holds a touch's first 15 px back as slop, and React Flow starts
    // the drag where the moves begin.
    expectNear({ x: moved.x - at.x, y: moved.y - at.y }, { x: -50, y: 90 }, 20);
    expect(await viewOf(page)).toEqual(view);
  });

  test("a long-press on a node opens its menu", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    const cdp = await page.context().newCDPSession(page);
    const text = await addOnPhone(page, canvas, "Text");
    const menu = page.getByRole("menu", { name: "Node actions" });

    // The finger stays down: after the hold the menu is there, before the finger lifts.
    const point = await headerPoint(canvas, text);
    await cdp.send("Input.dispatchTouchEvent", {
      type: "touchStart",
      touchPoints: [{ ...point, id: 0 }],
    });
    await expect(menu).toBeVisible();
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole("menuitem", { name: "Delete" })).toBeVisible();
    await expectNoOverflow(page, "the node menu");
    await canvas.shot("devices-phone-node-menu");

    // Its items act on the node.
    await menu.getByRole("menuitem", { name: "Duplicate" }).tap();
    await expect(menu).toBeHidden();
    await expect(canvas.nodes()).toHaveCount(2);
  });

  test("a pen drags a node as a mouse does", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    const cdp = await page.context().newCDPSession(page);
    const text = await addOnPhone(page, canvas, "Text");
    await page.evaluate(() => {
      window.addEventListener("pointerdown", (event) => {
        document.documentElement.dataset.lastPointer = event.pointerType;
      });
    });
    const at = await canvas.position(text);
    const from = await headerPoint(canvas, text);
    const pen = { button: "left", pointerType: "pen" } as const;
    await cdp.send("Input.dispatchMouseEvent", {
      type: "mousePressed",
      ...from,
      ...pen,
      buttons: 1,
      clickCount: 1,
    });
    for (let step = 1; step <= 20; step++)
      await cdp.send("Input.dispatchMouseEvent", {
        type: "mouseMoved",
        x: from.x + 3.5 * step,
        y: from.y + 4 * step,
        ...pen,
        buttons: 1,
      });
    await cdp.send("Input.dispatchMouseEvent", {
      type: "mouseReleased",
      x: from.x + 70,
      y: from.y + 80,
      ...pen,
      buttons: 0,
      clickCount: 1,
    });
    await expect(page.locator("html")).toHaveAttribute("data-last-pointer", "pen");
    await expect.poll(() => canvas.position(text)).not.toEqual(at);
    const moved = await canvas.position(text);
    expectNear({ x: moved.x - at.x, y: moved.y - at.y }, { x: 70, y: 80 }, 10);
  });
});

test("on a desktop, a right-click on a node opens the same menu", async ({ page }) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  const text = await canvas.add("Text");
  // Whether the browser's own menu was kept (read after the node menu's listener has run).
  await page.evaluate(() =>
    window.addEventListener("contextmenu", (event) => {
      document.documentElement.dataset.nativeMenu = String(!event.defaultPrevented);
    }),
  );
  const menu = page.getByRole("menu", { name: "Node actions" });
  // In a node's text field the browser's menu stays (copy, paste).
  await canvas.node(text).getByRole("textbox", { name: "Text" }).click({ button: "right" });
  await expect(page.locator("html")).toHaveAttribute("data-native-menu", "true");
  await expect(menu).toHaveCount(0);

  await canvas.node(text).locator(".node-header").click({ button: "right" });
  await expect(page.locator("html")).toHaveAttribute("data-native-menu", "false");
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: "Connect…" })).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(menu.getByRole("menuitem", { name: "Delete" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(menu).toBeHidden();
  await expect(canvas.nodes()).toHaveCount(0);
  // The side panel is beside the canvas as before: no sheet, no phone buttons.
  await expect(page.locator(".sidebar")).toBeVisible();
  await expect(page.locator(".sheet-toggles")).toBeHidden();
});
