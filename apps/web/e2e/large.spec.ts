import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

/** A 6 MB workflow file: 66 text nodes with 100,000-character texts. */
function bigWorkflow() {
  const nodes = Array.from({ length: 66 }, (_, index) => ({
    id: `big${index}`,
    type: "text",
    position: { x: (index % 10) * 400, y: Math.floor(index / 10) * 400 },
    data: {
      label: `Chapter ${index}`,
      inputValues: { text: { value: `${index}:`.padEnd(100_000, "lorem ipsum ") } },
    },
  }));
  return {
    version: "1.0.0",
    timestamp: Date.now(),
    nodes,
    edges: [],
    metadata: { name: "Big book" },
  };
}

test("a 6 MB workflow saves to the cloud in node batches and chunks and loads back identical", async ({
  page,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await canvas.signUp();

  const file = JSON.stringify(bigWorkflow());
  expect(file.length).toBeGreaterThan(6 * 1024 * 1024);
  await page
    .getByLabel("Import a workflow file")
    .setInputFiles({ name: "big.json", mimeType: "application/json", buffer: Buffer.from(file) });
  await expect(canvas.nodes()).not.toHaveCount(0);
  const batches: string[] = [];
  page.on("request", (request) => {
    if (/\/saves\/[^/]+\/batches\/\d+$/.test(request.url())) batches.push(request.url());
  });
  await page.keyboard.press("Control+s");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible({
    timeout: 30_000,
  });

  // The server stored it in chunks.
  const id = await page.evaluate(() => localStorage.getItem("atelier.lastWorkflow"));
  const row = await page.evaluate(
    async (workflowId) => (await (await fetch(`/api/workflows/${workflowId}`)).json()).workflow,
    id,
  );
  expect(row.is_chunked).toBe(true);
  expect(row.chunk_count).toBeGreaterThan(3);
  // Over 2 MB it went up in node batches of 20 (SPEC §9): 66 nodes → 4 batches.
  expect(batches).toHaveLength(4);

  const before = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const saved = JSON.parse(await readFile(await (await before).path(), "utf8"));

  await page.reload();
  await expect(page.getByRole("textbox", { name: "Workflow name" })).toHaveValue("Big book");
  const after = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const loaded = JSON.parse(await readFile(await (await after).path(), "utf8"));
  expect(loaded.nodes).toHaveLength(66);
  expect(loaded.nodes).toEqual(saved.nodes);
});
