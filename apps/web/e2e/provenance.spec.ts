import { expect, type Locator, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";
import { dropOnPane } from "./drop.ts";

const PROMPT = "a red fox in the snow";

// Tall enough for the generator's whole form, its result and the provenance in one shot.
test.use({ viewport: { width: 1280, height: 1700 } });

/** The value a provenance field shows, by its label. */
const field = (panel: Locator, label: string) =>
  panel
    .locator(".provenance-fields dt", { hasText: label })
    .locator("xpath=following-sibling::dd[1]");

/**
 * Issue 22 §4: a generated PNG says how it was made. The node's result view shows it,
 * "Re-run exactly" runs the same parameters and seed again, and the PNG dropped on an
 * empty canvas recreates the generator with them.
 */
test("a generated PNG carries its provenance: shown under the result, re-run exactly, and dropped to recreate its generator", async ({
  page,
  browser,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await canvas.signUp("provenance");
  const image = await canvas.add("FLUX1.1 [pro]");
  const node = canvas.node(image);
  await node.getByRole("textbox", { name: "Prompt" }).fill(PROMPT);
  await node.getByRole("button", { name: /^Advanced/ }).click();
  const seed = node.getByRole("spinbutton", { name: "Seed" });
  await seed.fill("1234");
  await node.getByRole("button", { name: "Run", exact: true }).click();
  await expect(node.locator(".status-pill")).toHaveText("Done", { timeout: 30_000 });
  const output = node.locator(".node-output img").first();
  await expect(output).toHaveAttribute("src", /\/api\/media\/file\/.+\.png$/);
  const src = (await output.getAttribute("src")) as string;
  // The image decodes a moment after its node says Done: the layout settles first.
  await expect
    .poll(() => output.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);

  // The result view reads the provenance from the file.
  const panel = node.locator(".provenance");
  await panel.getByText("How it was made").click();
  await expect(panel).toHaveAttribute("open", "");
  await expect(field(panel, "Model")).toHaveText("flux-pro");
  await expect(field(panel, "Provider")).toHaveText("local");
  await expect(field(panel, "Seed")).toHaveText("1234");
  await expect(field(panel, "Cost")).toHaveText("Free");
  await expect(field(panel, "Prompt")).toHaveText(PROMPT);
  await expect(field(panel, "Parameters")).toContainText("model: v1.1");
  await expect(field(panel, "Created")).not.toHaveText("—");
  await canvas.shot("provenance-panel");

  // Re-run exactly: the seed edited since goes back, and the run sends the recorded values.
  await seed.fill("99");
  const sent = page.waitForRequest(
    (request) => request.url().endsWith("/api/generate/flux-pro") && request.method() === "POST",
  );
  await panel.getByRole("button", { name: "Re-run exactly" }).click();
  const body = (await sent).postDataJSON() as { params: Record<string, unknown> };
  expect(body.params).toMatchObject({ prompt: PROMPT, seed: 1234, model: "v1.1" });
  await expect(seed).toHaveValue("1234");
  await expect(node.locator(".status-pill")).toHaveText("Done", { timeout: 30_000 });

  // The PNG dropped on an empty canvas (a fresh, signed-out browser) recreates its generator.
  const png = await (await page.request.get(src)).body();
  const other = await browser.newContext();
  try {
    const fresh = await other.newPage();
    const empty = new CanvasPage(fresh);
    await empty.open();
    await expect(empty.nodes()).toHaveCount(0);
    const uploads: string[] = [];
    fresh.on("request", (request) => {
      if (request.url().endsWith("/api/media") && request.method() === "POST")
        uploads.push(request.url());
    });
    const transfer = await fresh.evaluateHandle(
      (bytes) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(bytes)], "fox.png", { type: "image/png" }));
        return transfer;
      },
      [...png],
    );
    await dropOnPane(fresh, transfer);
    await expect(empty.nodes()).toHaveCount(1);
    const recreated = empty.nodes().first();
    await expect(recreated).toHaveClass(/react-flow__node-flux-pro/);
    await expect(recreated.getByRole("textbox", { name: "Prompt" })).toHaveValue(PROMPT);
    await recreated.getByRole("button", { name: /^Advanced/ }).click();
    await expect(recreated.getByRole("spinbutton", { name: "Seed" })).toHaveValue("1234");
    expect(uploads).toEqual([]);
    await empty.shot("provenance-dropped");
  } finally {
    await other.close();
  }
});
