import { getNodeDefinition } from "@atelier/core";
import { expect, test } from "@playwright/test";
import { TEMPLATES } from "../src/features/templates/templates.ts";
import { scan } from "./axe.ts";
import { CanvasPage } from "./canvas-page.ts";

/** What a template asks of its user after Run all, then checked through. */
const afterRun: Record<string, (canvas: CanvasPage) => Promise<void>> = {
  // The scene composer's picture comes from its Capture: the video is then made from it.
  "scene-video": async (canvas) => {
    const scene = canvas.nodes().filter({ has: canvas.page.locator(".scene-composer") });
    const items = scene.getByRole("list", { name: "Scene items" });
    await expect(items.getByRole("listitem")).toHaveCount(2);
    await expect(items.getByText("Loading…")).toHaveCount(0, { timeout: 20_000 });
    await scene.getByRole("button", { name: "Capture", exact: true }).click();
    await expect(scene.locator(".node-output img").first()).toHaveAttribute(
      "src",
      /\/api\/media\/file\/.+\.png$/,
      { timeout: 20_000 },
    );
    const video = canvas.nodes().filter({ hasText: "Scene video" });
    const before = await video.locator("video").getAttribute("src");
    await canvas.page.getByRole("button", { name: "Run all" }).click();
    await expect
      .poll(() => video.locator("video").getAttribute("src"), { timeout: 40_000 })
      .not.toBe(before);
    await expect(video.locator(".status-pill")).toHaveText("Done", { timeout: 40_000 });
  },
};

test("the template gallery runs each template offline to completion", async ({ page }) => {
  test.setTimeout(TEMPLATES.length * 60_000);
  const canvas = new CanvasPage(page);
  await canvas.open();
  // Should a run's estimate ask first (it does not on the local provider), it may go.
  const costPrompt = page.getByRole("dialog", { name: "Confirm the run's cost" });
  await page.addLocatorHandler(costPrompt, () =>
    costPrompt.getByRole("button", { name: "Run", exact: true }).click(),
  );
  const gallery = page.getByRole("dialog", { name: "Start from a template" });

  for (const [index, template] of TEMPLATES.entries()) {
    const graph = template.build();
    const runnable = graph.nodes.filter(
      (node) => getNodeDefinition(node.type ?? "")?.run.kind !== "none",
    ).length;
    if (index === 0) {
      // From the empty canvas, with the keyboard: the first card has focus, arrows move it.
      await page.getByRole("button", { name: "Start from a template" }).click();
      await expect(
        gallery.getByRole("button", { name: template.title, exact: true }),
      ).toBeFocused();
      await expect(gallery.getByRole("listitem")).toHaveCount(TEMPLATES.length);
      await scan(page, "template gallery", "dialog.modal");
      await canvas.shot("template-gallery");
      await page.keyboard.press("ArrowRight");
      await expect(gallery.getByRole("button").nth(1)).toBeFocused();
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("Enter");
    } else {
      // Then from the library, beside New workflow; the last template's work is unsaved.
      await page.getByRole("tab", { name: "Library" }).click();
      await page
        .getByRole("navigation", { name: "Library" })
        .getByRole("button", { name: "New from template…" })
        .click();
      await gallery.getByRole("button", { name: template.title, exact: true }).click();
      await page
        .getByRole("dialog", { name: "Unsaved changes" })
        .getByRole("button", { name: "Discard changes" })
        .click();
    }
    await expect(gallery).toBeHidden();
    await expect(canvas.nodes()).toHaveCount(graph.nodes.length);
    await expect(canvas.edges()).toHaveCount(graph.edges.length);
    await expect(page.getByRole("textbox", { name: "Workflow name" })).toHaveValue(template.title);

    await page.getByRole("button", { name: "Run all" }).click();
    const pills = page.locator(".react-flow__node .status-pill");
    await expect(pills).toHaveCount(runnable);
    await expect(pills).toHaveText(Array(runnable).fill("Done"), { timeout: 60_000 });
    await expect(page.locator(".react-flow__node .node-error")).toHaveCount(0);
    await afterRun[template.id]?.(canvas);
    // The queue catches up with the nodes a moment later.
    await expect(
      page.locator(".queue-entry.status-IN_QUEUE, .queue-entry.status-IN_PROGRESS"),
    ).toHaveCount(0, { timeout: 20_000 });
    // Nothing selected (a Capture selects its node): no selection toolbar in the picture.
    await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
    await expect(page.locator(".react-flow__node.selected")).toHaveCount(0);
    // The whole result in view, still drawn in full detail (the layout is compact enough).
    await page.locator(".react-flow__controls-fitview").click();
    await expect(canvas.nodes()).toHaveCount(graph.nodes.length);
    await expect(page.locator(".node-simple")).toHaveCount(0);
    await canvas.shot(`template-${template.id}`);
  }
});
