import { expect, type Locator, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";
import { dropOnPane, transferOf } from "./drop.ts";
import {
  canary,
  HOSTILE_SVG,
  HOSTILE_URLS,
  installCanary,
  MARKDOWN_URLS,
  SAFE_PNG,
  SVG_DATA,
  unsafeAttributes,
  XSS_CORPUS,
  XSS_PAYLOADS,
} from "./xss.ts";

test.describe("hostile text and SVG run no script", () => {
  test.beforeEach(({ page }) => installCanary(page));

  test("node names, group titles and annotations from an imported file, and a rename, stay text", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    const [script, img, svg, link] = XSS_PAYLOADS as [string, string, string, string];
    const workflow = {
      version: "1.0.0",
      metadata: { name: "<img src=x onerror=window.__xss++>" },
      edges: [],
      nodes: [
        { id: "t1", type: "text", position: { x: 0, y: 0 }, data: { label: script } },
        { id: "f1", type: "flux-pro", position: { x: 320, y: 0 }, data: { label: img } },
        {
          id: "g1",
          type: "group",
          position: { x: 0, y: 420 },
          style: { width: 300, height: 160 },
          data: { label: svg, color: "red;background:url(javascript:window.__xss++)" },
        },
        {
          id: "a1",
          type: "annotation",
          position: { x: 420, y: 420 },
          data: { inputValues: { text: { value: link }, arrow: { value: "left" } } },
        },
      ],
    };
    await page.getByLabel("Import a workflow file").setInputFiles({
      name: "hostile.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(workflow)),
    });
    await expect(canvas.nodes()).toHaveCount(4);
    await expect(canvas.node("t1").locator(".node-title")).toContainText(script);
    await expect(canvas.node("f1").locator(".node-title")).toContainText(img);
    await expect(page.locator(".group-title")).toHaveText(svg);
    await expect(canvas.node("a1").getByRole("region", { name: "Annotation" })).toContainText(link);
    // Nothing the payloads describe exists as an element.
    const markup = ":is(script, img, svg, iframe, a, [onerror], [onload])";
    await expect(page.locator(`.node-title ${markup}, .group-title *`)).toHaveCount(0);
    await expect(
      canvas.node("a1").getByRole("region", { name: "Annotation" }).locator(markup),
    ).toHaveCount(0);

    // A rename with a payload is shown as typed.
    await canvas.node("t1").locator(".node-title").dblclick();
    const name = canvas.node("t1").getByRole("textbox", { name: "Node name" });
    await name.fill(img);
    await name.press("Enter");
    await expect(canvas.node("t1").locator(".node-title")).toContainText(img);
    await expect(canvas.node("t1").locator("img")).toHaveCount(0);
    expect(await canary(page)).toBe(0);
  });

  test("a hostile SVG dropped on the canvas, and vectorize's SVG, are stored and served inert", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("xss-svg");
    await dropOnPane(page, await transferOf(page, "hostile.svg", HOSTILE_SVG, "image/svg+xml"));
    await expect(canvas.nodes()).toHaveCount(1);
    const [holder] = await canvas.nodeIds();
    const shown = canvas
      .node(holder as string)
      .locator(".node-output img")
      .first();
    await expect(shown).toHaveAttribute("src", /\/api\/media\/file\/.+\.svg$/, { timeout: 20_000 });
    const uploaded = (await shown.getAttribute("src")) as string;
    const stored = await page.request.get(uploaded);
    const body = await stored.text();
    for (const bad of ["<script", "onload", "onclick", "javascript:", "foreignObject", "iframe"])
      expect(body).not.toContain(bad);
    expect(stored.headers()["content-security-policy"]).toContain("sandbox");

    const vectorize = await canvas.add("Vectorize");
    await canvas.drag(vectorize, 320, 0);
    await canvas.connect(holder as string, "output", vectorize, "image");
    await canvas.node(vectorize).getByRole("button", { name: "Run", exact: true }).click();
    await expect(canvas.node(vectorize).locator(".status-pill")).toHaveText("Done", {
      timeout: 30_000,
    });
    const traced = await canvas
      .node(vectorize)
      .locator(".node-output img")
      .first()
      .getAttribute("src");
    expect(traced).toMatch(/\/api\/media\/file\/.+\.svg$/);

    // Moondream's answer to a hostile question is shown as text.
    const moondream = await canvas.add("Moondream 3");
    await canvas.drag(moondream, 320, 360);
    await canvas.connect(holder as string, "output", moondream, "image");
    await canvas
      .node(moondream)
      .getByRole("textbox", { name: "Question (leave empty for a caption)" })
      .fill(XSS_PAYLOADS.slice(0, 3).join(" "));
    await canvas.node(moondream).getByRole("button", { name: "Run", exact: true }).click();
    await expect(canvas.node(moondream).locator(".status-pill")).toHaveText("Done", {
      timeout: 30_000,
    });
    await expect(
      canvas.node(moondream).locator(".node-output :is(script, img, svg, iframe, [onerror])"),
    ).toHaveCount(0);
    expect(await canary(page)).toBe(0);

    // Opened on their own (a new tab, a shared link), both documents stay inert.
    for (const url of [uploaded, traced as string]) {
      const response = await page.goto(url);
      expect(response?.headers()["content-security-policy"]).toContain("sandbox");
      expect(response?.headers()["x-content-type-options"]).toBe("nosniff");
      await page.mouse.click(20, 20);
      expect(await canary(page)).toBe(0);
    }
  });
});

/* A public workflow full of hostile addresses and markup, in every field that renders. */

const [H0, H1, H2, H3, H4, H5, H6] = HOSTILE_URLS as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];
const MARKUP = XSS_PAYLOADS[1] as string;
const at = (x: number, y: number) => ({ x, y });
const said = (record: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, { value }]));
const wire = (source: string, sourceHandle: string, target: string, targetHandle: string) => ({
  id: `${source}-${target}-${targetHandle}`,
  source,
  sourceHandle,
  target,
  targetHandle,
});
const entry = (requestId: string, imageUrl: string) => ({
  requestId,
  at: 1,
  outputs: { imageUrl },
  outputValues: { image: { value: imageUrl } },
});

/** Each part fits one screen at full detail (a zoomed-out node shows only its name). */
const PARTS: { name: string; nodes: object[]; edges: object[] }[] = [
  {
    name: "media outputs and result history",
    nodes: [
      {
        id: "img",
        type: "flux-pro",
        position: at(0, 0),
        data: {
          label: MARKUP,
          status: "complete",
          outputs: { imageUrl: H0, images: [H1, SAFE_PNG, SVG_DATA, H5, H6] },
          history: [entry("r1", H3), entry("r2", H6), entry("r3", H0)],
        },
      },
      {
        id: "vid",
        type: "video",
        position: at(380, 0),
        data: {
          label: H0,
          status: "complete",
          outputs: { videoUrl: H0, generatedVideo: "/api/media/file/none.webm", capturedFrame: H1 },
        },
      },
      {
        id: "aud",
        type: "stable-audio",
        position: at(760, 0),
        data: {
          status: "complete",
          outputs: { audioUrl: H2, isolatedAudio: { url: H5 }, audio: "/api/media/file/none.wav" },
        },
      },
      {
        id: "model",
        type: "3d",
        position: at(1140, 0),
        data: {
          status: "complete",
          outputs: { glbUrl: "/api/media/file/none.glb", modelUrl: H3, snapshot: H0 },
        },
      },
    ],
    edges: [],
  },
  {
    name: "galleries",
    nodes: [
      {
        id: "box",
        type: "container",
        position: at(0, 0),
        data: { label: MARKUP, outputs: { items: [...HOSTILE_URLS, SVG_DATA, SAFE_PNG] } },
      },
      {
        id: "vbox",
        type: "video-container",
        position: at(380, 0),
        data: { outputs: { items: [...HOSTILE_URLS, "/api/media/file/none.webm"] } },
      },
      {
        id: "abox",
        type: "audio-container",
        position: at(760, 0),
        data: { outputs: { items: HOSTILE_URLS.map((url) => ({ url })) } },
      },
      {
        id: "mbox",
        type: "3d-container",
        position: at(1140, 0),
        data: { outputs: { items: [...HOSTILE_URLS, "/api/media/file/none.glb"] } },
      },
      {
        id: "feed",
        type: "flux-pro",
        position: at(0, 420),
        data: { status: "complete", outputs: { imageUrl: H4 } },
      },
      { id: "wired", type: "container", position: at(380, 420), data: {} },
    ],
    edges: [wire("feed", "image", "wired", "media")],
  },
  {
    name: "notes, references, automation, previews and groups",
    nodes: [
      {
        id: "note",
        type: "notepad",
        position: at(0, 0),
        data: { label: MARKUP, inputValues: said({ text: `${XSS_CORPUS}\n\n${MARKDOWN_URLS}` }) },
      },
      {
        id: "md",
        type: "markdown-viewer",
        position: at(380, 0),
        data: { inputValues: said({ text: MARKDOWN_URLS }) },
      },
      {
        id: "ann",
        type: "annotation",
        position: at(760, 0),
        data: { inputValues: said({ text: `${H0} ${MARKUP}`, arrow: "left" }) },
      },
      {
        id: "src",
        type: "flux-pro",
        position: at(1140, 0),
        data: { status: "complete", outputs: { imageUrl: H1 } },
      },
      {
        id: "ref",
        type: "character-reference",
        position: at(1140, 420),
        data: { inputValues: said({ name: MARKUP, description: H0 }) },
      },
      { id: "crop", type: "crop", position: at(760, 420), data: {} },
      {
        id: "auto",
        type: "image-automation",
        position: at(380, 420),
        data: {
          status: "complete",
          automation: {
            runs: [H1, H3, H6].map((result, index) => ({
              item: MARKUP,
              target: "src",
              port: "prompt",
              requestId: `a${index}`,
              status: "complete",
              result,
              error: null,
            })),
          },
        },
      },
      {
        id: "frame",
        type: "group",
        position: at(0, 560),
        style: { width: 300, height: 140, backgroundImage: "url(//evil.example/bg.png)" },
        data: { label: MARKUP, color: "url(//evil.example/c.png)" },
      },
    ],
    edges: [wire("src", "image", "ref", "referenceImages"), wire("src", "image", "crop", "image")],
  },
  {
    name: "3D scene",
    nodes: [
      {
        id: "mesh",
        type: "3d",
        position: at(0, 0),
        data: { status: "complete", outputs: { glbUrl: H3 } },
      },
      {
        id: "still",
        type: "flux-pro",
        position: at(0, 420),
        data: { status: "complete", outputs: { imageUrl: H0 } },
      },
      { id: "scene", type: "scene-composer", position: at(420, 0), data: {} },
    ],
    edges: [wire("mesh", "model", "scene", "model"), wire("still", "image", "scene", "image")],
  },
];

/**
 * Presses every button and link in `node` (but Run and Cancel), closing what opens. Nodes
 * overlap on a full canvas, so the press is the element's own click, not the mouse's.
 * Adds each press to `pressed`; returns the controls whose press ran script or left the page.
 */
async function pressEverything(page: Page, node: Locator, pressed: string[]): Promise<string[]> {
  // A press may redraw the node (another result, a toggle): each control is marked once
  // pressed and the next unmarked one is taken, so none is skipped; a cap ends redraw loops.
  const next = node
    .locator(
      ":is(button, a[href], summary):not(.run-button, .run-cancel, .run-controls *, [data-pressed])",
    )
    .filter({ visible: true })
    .first();
  const ranOn: string[] = [];
  for (let round = 0; round < 60 && (await next.count()) > 0; round++) {
    const label =
      (await next.getAttribute("aria-label")) ||
      (await next.textContent())?.trim() ||
      (await next.getAttribute("title"));
    const enabled = await next.evaluate((element: HTMLElement) => {
      element.dataset.pressed = "";
      if (element.matches(":disabled")) return false;
      element.click();
      return true;
    });
    if (!enabled) continue;
    pressed.push(label ?? "");
    // Read at once: a press that leaves the page would take the canary with it.
    const ran = await canary(page).catch(() => -1);
    if (ran !== 0) ranOn.push(`${label} (${ran === -1 ? "left the page" : "ran script"})`);
    if (await page.locator("dialog[open]").count()) await page.keyboard.press("Escape");
  }
  return ranOn;
}

/** Dialogs, new pages, downloads and navigations of the page, as they happen. */
function watch(page: Page) {
  const seen = { dialogs: [] as string[], opened: [] as string[] };
  page.on("dialog", (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.context().on("page", (popup) => seen.opened.push(popup.url()));
  page.on("download", (download) => seen.opened.push(download.url()));
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) seen.opened.push(frame.url());
  });
  return seen;
}

async function importWorkflow(page: Page, part: (typeof PARTS)[number]) {
  await page.getByLabel("Import a workflow file").setInputFiles({
    name: "hostile.json",
    mimeType: "application/json",
    buffer: Buffer.from(
      JSON.stringify({
        version: "1.0.0",
        metadata: { name: MARKUP },
        nodes: part.nodes,
        edges: part.edges,
      }),
    ),
  });
}

/**
 * Checks the drawn workflow, presses every button on its nodes and checks again: no
 * script ran, no dialog opened, no bad address is in the page. Soft, so one failing run
 * still presses everything and shows all that is wrong.
 */
async function pressAndCheck(
  page: Page,
  ids: string[],
  seen: ReturnType<typeof watch>,
): Promise<string[]> {
  const pressed: string[] = [];
  const canvas = new CanvasPage(page);
  await expect(canvas.nodes()).toHaveCount(ids.length);
  // Lazily loaded content (viewers, galleries, markdown) has arrived.
  await expect(page.locator(".react-flow__node").getByText("Loading…")).toHaveCount(0);
  await expect(page.locator(".media-skeleton")).toHaveCount(0);
  expect.soft(await unsafeAttributes(page), "as drawn").toEqual([]);
  for (const id of ids)
    expect
      .soft(await pressEverything(page, canvas.node(id), pressed), `pressing on ${id}`)
      .toEqual([]);
  await page.waitForTimeout(300);
  expect.soft(await unsafeAttributes(page), "after every press").toEqual([]);
  expect.soft(await canary(page)).toBe(0);
  expect.soft(seen.dialogs).toEqual([]);
  return pressed;
}

/** Nothing opened, downloaded or navigated to a script, a text document or another site. */
async function leftNothing(page: Page, seen: ReturnType<typeof watch>) {
  for (const address of seen.opened)
    expect(address).not.toMatch(/^\s*(javascript|vbscript|data:text)|evil\.example/i);
  // The app's own bundle is the only script with a source; no frame was ever added.
  expect(await page.locator('script[src]:not([src^="/assets/"]), iframe, [srcdoc]').count()).toBe(
    0,
  );
  expect(page.url()).toMatch(/^http:\/\/127\.0\.0\.1/);
}

test.describe("a public workflow of hostile addresses runs no script", () => {
  test.use({ viewport: { width: 1600, height: 1000 } });
  test.beforeEach(({ page }) => installCanary(page));

  test("every field that renders, and every button on its nodes, keeps script and bad addresses out", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    const seen = watch(page);
    await canvas.open();
    const pressed: string[] = [];
    for (const part of PARTS) {
      await test.step(part.name, async () => {
        await importWorkflow(page, part);
        const ids = part.nodes.map((node) => (node as { id: string }).id);
        pressed.push(...(await pressAndCheck(page, ids, seen)));
        await expect
          .soft(
            page
              .getByRole("note")
              .filter({ hasText: /^Blocked/ })
              .first(),
          )
          .toBeVisible();
      });
    }
    // The buttons the attack needs were there to press, and were pressed.
    expect(pressed).toEqual(
      expect.arrayContaining([
        "Open larger view",
        "Previous result",
        "View in 3D",
        "Download",
        "Download all (1)",
        "3D model 1",
      ]),
    );
    await leftNothing(page, seen);
  });

  test("what the allow-list passes still shows: embedded images and this server's media", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await importWorkflow(page, PARTS[1] as (typeof PARTS)[number]);
    const box = canvas.node("box");
    await expect(box.getByRole("list", { name: "Gallery" }).locator("img")).toHaveCount(2);
    await expect(box.locator(`img[src="${SAFE_PNG}"]`)).toBeVisible();
    await expect(box.getByRole("note")).toHaveText(
      `Blocked ${HOSTILE_URLS.length} unsafe media addresses`,
    );
    // The SVG is shown, never offered for saving: one download, the PNG.
    await expect(box.getByRole("button", { name: "Download all (1)" })).toBeVisible();
    await expect(canvas.node("mbox").getByRole("link", { name: "3D model 1" })).toHaveAttribute(
      "href",
      "/api/media/file/none.glb",
    );
    await expect(canvas.node("wired").getByRole("note")).toHaveText(
      "Blocked an unsafe media address",
    );
    await importWorkflow(page, PARTS[0] as (typeof PARTS)[number]);
    await expect(canvas.node("img").locator(`.node-output img[src="${SAFE_PNG}"]`)).toBeVisible();
    await expect(canvas.node("model").getByRole("button", { name: "View in 3D" })).toBeVisible();
    await expect(canvas.node("vid").locator("video")).toHaveAttribute(
      "src",
      "/api/media/file/none.webm",
    );
    await expect(canvas.node("vid").locator("video")).not.toHaveAttribute("poster", /./);
  });

  test("saved to the cloud, filed in a folder named with markup and opened from the library, it stays inert", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    const seen = watch(page);
    await canvas.open();
    await canvas.signUp("xss-cloud");
    const galleries = PARTS[1] as (typeof PARTS)[number];
    await importWorkflow(page, galleries);
    await expect(canvas.nodes()).toHaveCount(galleries.nodes.length);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible({
      timeout: 30_000,
    });

    // Folder names refuse < > : " / \ | ? *, so the markup is what is left: entities and
    // attribute breaks.
    const folderName = "&lt;img src=x onerror=window.__xss++&gt; 'onmouseover=window.__xss++ x='";
    await page.getByRole("tab", { name: "Library" }).click();
    const folders = page.getByRole("region", { name: "Folders" });
    await folders.getByLabel("New folder name").fill(folderName);
    await folders.getByRole("button", { name: "Create" }).click();
    await expect(
      folders.getByRole("button", { name: `${folderName} (0)`, exact: true }),
    ).toBeVisible();
    await folders.getByLabel(`Move ${MARKUP} to`).selectOption({ label: folderName });
    await folders.getByRole("button", { name: `${folderName} (1)`, exact: true }).click();
    const listed = folders.getByRole("list", { name: "Workflows in this folder" });
    await expect(listed.getByRole("button", { name: MARKUP, exact: true })).toBeVisible();
    expect.soft(await unsafeAttributes(page)).toEqual([]);

    await listed.getByRole("button", { name: MARKUP, exact: true }).click();
    await pressAndCheck(
      page,
      galleries.nodes.map((node) => (node as { id: string }).id),
      seen,
    );
    await leftNothing(page, seen);
  });
});
