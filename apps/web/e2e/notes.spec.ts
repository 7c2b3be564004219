import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";
import { canary, installCanary, XSS_CORPUS } from "./xss.ts";

test.describe("notes, annotations and markdown", () => {
  test.beforeEach(({ page }) => installCanary(page));

  test("a notepad shows formatted notes and keeps them across a reload", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    const note = await canvas.add("Notepad");
    await canvas
      .node(note)
      .getByRole("textbox", { name: "Notes" })
      .fill("**Shot list**\n\n- wide\n- close-up\n\n~~draft~~");
    const notes = canvas.node(note).getByRole("region", { name: "Notes" });
    await expect(notes.locator("strong")).toHaveText("Shot list");
    await expect(notes.locator("li")).toHaveText(["wide", "close-up"]);
    await expect(notes.locator("del")).toHaveText("draft");
    await page.keyboard.press("Control+s");
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
    await page.reload();
    await expect(
      canvas.node(note).getByRole("region", { name: "Notes" }).locator("strong"),
    ).toHaveText("Shot list");
  });

  test("the markdown viewer renders its input; an annotation shows its label", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    const text = await canvas.add("Text");
    await canvas.drag(text, -350, -100);
    const viewer = await canvas.add("Markdown");
    await canvas.drag(viewer, 80, -120);
    await canvas
      .node(text)
      .getByRole("textbox", { name: "Text" })
      .fill(
        "# Plan\n\n| shot | lens |\n|---|---|\n| wide | 24mm |\n\n[docs](https://example.com/guide)",
      );
    await canvas.connect(text, "text", viewer, "text");
    await expect(canvas.edges()).toHaveCount(1);
    const rendered = canvas.node(viewer).getByRole("region", { name: "Rendered markdown" });
    await expect(rendered.locator("h1")).toHaveText("Plan");
    await expect(rendered.locator("td")).toHaveText(["wide", "24mm"]);
    const link = rendered.getByRole("link", { name: "docs" });
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", /noopener/);

    const label = await canvas.add("Annotation");
    await canvas.node(label).getByRole("textbox", { name: "Label" }).fill("Renders go here");
    await expect(canvas.node(label).getByRole("region", { name: "Annotation" })).toContainText(
      "Renders go here",
    );
    await canvas.shot("notes-markdown");
  });

  test("an XSS corpus through notes and markdown runs no script", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    const note = await canvas.add("Notepad");
    await canvas.drag(note, -300, -100);
    await canvas.node(note).getByRole("textbox", { name: "Notes" }).fill(XSS_CORPUS);
    const text = await canvas.add("Text");
    await canvas.drag(text, 60, -160);
    const viewer = await canvas.add("Markdown");
    await canvas.drag(viewer, 420, -100);
    await canvas.node(text).getByRole("textbox", { name: "Text" }).fill(XSS_CORPUS);
    await canvas.connect(text, "text", viewer, "text");
    await expect(canvas.edges()).toHaveCount(1);
    const notes = canvas.node(note).getByRole("region", { name: "Notes" });
    const rendered = canvas.node(viewer).getByRole("region", { name: "Rendered markdown" });
    await expect(rendered.getByText("markdown link")).toBeVisible();
    await expect(notes.getByText("markdown link")).toBeVisible();
    for (const region of [notes, rendered]) {
      await expect(region.locator("script, iframe, svg, img, [onerror], [onload]")).toHaveCount(0);
      await expect(region.locator('a[href^="javascript"], a[href^="data:"]')).toHaveCount(0);
      await region.getByText("markdown link").click();
    }
    expect(await canary(page)).toBe(0);
  });
});
