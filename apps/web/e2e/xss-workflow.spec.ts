import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";
import { importWorkflow, leftNothing, PARTS, pressAndCheck, watch } from "./hostile-workflow.ts";
import { HOSTILE_URLS, installCanary, SAFE_PNG } from "./xss.ts";

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
});
