import { expect, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

/** The event streams the page holds open, by path (EventSource is wrapped to count them). */
async function countStreams(page: Page) {
  await page.addInitScript(() => {
    const opened: EventSource[] = [];
    (window as unknown as { __streams: EventSource[] }).__streams = opened;
    const Real = window.EventSource;
    window.EventSource = class extends Real {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        opened.push(this);
      }
    } as typeof EventSource;
  });
  return () =>
    page.evaluate(() =>
      (window as unknown as { __streams: EventSource[] }).__streams
        .filter((stream) => stream.readyState !== EventSource.CLOSED)
        .map((stream) => new URL(stream.url).pathname.replace(/[0-9a-f-]{36}/, ":id"))
        .sort(),
    );
}

// A browser keeps six connections per server: every stream a tab leaks is one less for its
// requests and its other tabs (two tabs with three streams each stalled a save).
test("an editor tab holds one stream for its workflow and one for its jobs", async ({ page }) => {
  const open = await countStreams(page);
  const canvas = new CanvasPage(page);
  await canvas.open();
  await canvas.signUp("streams");
  await canvas.add("Text");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  const expected = ["/api/queue/events", "/api/workflows/:id/events"];
  await expect.poll(open).toEqual(expected);
  await page.reload();
  await expect(canvas.nodes()).toHaveCount(1);
  await expect.poll(open).toEqual(expected);
  // A second workflow replaces the first one's stream.
  await page.getByRole("tab", { name: "Library" }).click();
  await page.getByRole("button", { name: "New workflow" }).click();
  await page.getByRole("tab", { name: "Nodes" }).click();
  await canvas.add("Text");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  await expect.poll(open).toEqual(expected);
});
