import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";
import { dropOnPane, transferOf } from "./drop.ts";
import { PRICED_URL } from "./priced.ts";

// The priced server: signed-in runs go to a fake fal, $2 a day per account (e2e/priced.ts).
test.use({ baseURL: PRICED_URL });

test("a node and Run all show estimates; a run over the budget is refused with the reason; spend shows in Usage", async ({
  page,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await canvas.signUp("costs");

  // Two frames, dropped from the desktop, into Veo 3.1 Fast: 8 s with audio at $0.15/s.
  const frames: string[] = [];
  for (const [n, y] of [
    [1, 120],
    [2, 420],
  ] as const) {
    const before = new Set(await canvas.nodeIds());
    await dropOnPane(page, await transferOf(page, `frame-${n}.png`), 160, y);
    await expect(canvas.nodes()).toHaveCount(before.size + 1);
    const added = (await canvas.nodeIds()).find((id) => !before.has(id)) as string;
    await expect(canvas.node(added).locator(".status-pill")).toHaveText("Done", {
      timeout: 20_000,
    });
    frames.push(added);
  }
  const veo = await canvas.add("Veo 3.1");
  await canvas.drag(veo, 520, 40);
  await canvas.node(veo).getByRole("textbox", { name: "Prompt" }).fill("a lighthouse at dusk");
  await canvas.node(veo).getByLabel("Model").selectOption("fast");
  await canvas.connect(frames[0] as string, "output", veo, "firstFrame");
  await canvas.connect(frames[1] as string, "output", veo, "lastFrame");
  await expect(canvas.edges()).toHaveCount(2);

  const cost = canvas.node(veo).getByTestId("node-cost");
  await expect(cost).toHaveText("Est. $1.20");
  await expect(cost).toHaveAttribute(
    "title",
    "fal's published price for fal-ai/veo3.1/fast/first-last-frame-to-video",
  );
  const runAll = page.getByRole("button", { name: /^Run all/ });
  await expect(runAll).toHaveText("Run all · Est. $1.20");
  await canvas.shot("costs-estimates");

  // Above the $1 threshold (Preferences): the estimate is shown and the run waits for a yes.
  await runAll.click();
  const ask = page.getByRole("dialog", { name: "Confirm the run's cost" });
  await expect(ask).toContainText("This run is estimated at $1.20. Run it?");
  await canvas.shot("costs-confirm");
  await ask.getByRole("button", { name: "Run", exact: true }).click();
  await expect(canvas.node(veo).locator(".status-pill")).toHaveText("Done", { timeout: 30_000 });
  // Unchanged since it completed: Run all would keep its result, so it costs nothing now.
  await expect(runAll).toHaveText("Run all");

  // 6 s ($0.90) is more than the $0.80 left of the day's $2.00: refused before fal sees it.
  await canvas.node(veo).getByLabel("Duration").selectOption("6s");
  await expect(cost).toHaveText("Est. $0.90");
  await canvas.node(veo).getByRole("button", { name: "Run", exact: true }).click();
  const refusal =
    "Over budget: this would cost $0.90 but $0.80 is left of your daily budget ($2.00)";
  await expect(canvas.node(veo).getByRole("alert")).toContainText(refusal);
  await canvas.shot("costs-over-budget");

  // What was spent, by day and model.
  await page.getByRole("button", { name: /^Account: / }).click();
  await page.getByRole("menuitem", { name: "Usage…" }).click();
  const usage = page.getByRole("dialog", { name: "Usage" });
  const rows = usage.getByRole("table", { name: "Spend by day and model" }).getByRole("row");
  await expect(rows.filter({ hasText: "Veo 3.1" })).toContainText("$1.20");
  await expect(usage.getByRole("list", { name: "Budgets" })).toContainText(
    "$1.20 of your daily budget of $2.00 · $0.80 left",
  );
  await canvas.shot("costs-usage");
});
