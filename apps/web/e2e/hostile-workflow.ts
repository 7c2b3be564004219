import { expect, type Locator, type Page } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";
import {
  canary,
  HOSTILE_URLS,
  MARKDOWN_URLS,
  SAFE_PNG,
  SVG_DATA,
  unsafeAttributes,
  XSS_CORPUS,
  XSS_PAYLOADS,
} from "./xss.ts";

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
export const MARKUP = XSS_PAYLOADS[1] as string;
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
export const PARTS: { name: string; nodes: object[]; edges: object[] }[] = [
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
export function watch(page: Page) {
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

export async function importWorkflow(page: Page, part: (typeof PARTS)[number]) {
  // An import replaces the open workflow: with unsaved edits (the last part's) it asks first.
  const dirty = await page.getByRole("status", { name: "Unsaved changes" }).isVisible();
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
  if (dirty)
    await page
      .getByRole("dialog", { name: "Unsaved changes" })
      .getByRole("button", { name: "Discard changes" })
      .click();
}

/**
 * Checks the drawn workflow, presses every button on its nodes and checks again: no
 * script ran, no dialog opened, no bad address is in the page. Soft, so one failing run
 * still presses everything and shows all that is wrong.
 */
export async function pressAndCheck(
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
export async function leftNothing(page: Page, seen: ReturnType<typeof watch>) {
  for (const address of seen.opened)
    expect(address).not.toMatch(/^\s*(javascript|vbscript|data:text)|evil\.example/i);
  // The app's own bundle is the only script with a source; no frame was ever added.
  expect(await page.locator('script[src]:not([src^="/assets/"]), iframe, [srcdoc]').count()).toBe(
    0,
  );
  expect(page.url()).toMatch(/^http:\/\/127\.0\.0\.1/);
}
