import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";
import { dropOnPane, transferOf } from "./drop.ts";
import { canary, HOSTILE_SVG, installCanary, XSS_PAYLOADS } from "./xss.ts";

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
